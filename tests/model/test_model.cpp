// Domain model: JSON reading with located errors, transactions, typed change events, undo by inversion.
#include <QtTest>
#include <functional>

#include "catalog.h"
#include "design_json.h"
#include "document.h"
#include "input_error.h"

using namespace ctwin::model;
using ojson = nlohmann::ordered_json;

namespace {

/// A small valid design: one site, building, hall, row, feed, loop, two racks.
ojson smallDesign() {
    return ojson::parse(R"({
      "format": "clustertwin-design", "schema_version": 1,
      "project": {"id": "p", "name": "Small"},
      "sites": [{"id": "s1", "name": "Site", "lat_deg": 40.0, "lon_deg": -90.0}],
      "buildings": [{"id": "b1", "name": "B1", "site": "s1", "power_capacity_w": 5e6, "width_m": 60, "depth_m": 40}],
      "halls": [{"id": "h1", "name": "Hall 1", "building": "b1", "width_m": 30, "depth_m": 20}],
      "power_feeds": [{"id": "f1", "name": "Feed A", "building": "b1", "capacity_w": 2e6}],
      "cooling_loops": [{"id": "l1", "name": "Loop 1", "hall": "h1", "cdu_type": "cdu-2mw", "cdu_count": 2,
                         "plant": "plant-dry-cooler"}],
      "rows": [{"id": "row1", "name": "Row 1", "hall": "h1"}],
      "racks": [
        {"id": "r1", "name": "R1", "row": "row1", "rack_type": "gb200-nvl72", "x_m": 1.0, "feed_a": "f1", "cooling_loop": "l1"},
        {"id": "r2", "name": "R2", "row": "row1", "rack_type": "gb200-nvl72", "x_m": 1.6, "feed_a": "f1", "cooling_loop": "l1"}
      ]
    })");
}

/// Expects projectFromJson to throw an InputError whose message contains every fragment.
void expectError(const ojson& j, std::initializer_list<const char*> fragments) {
    try {
        projectFromJson(j, "design.json");
        QFAIL("expected an InputError");
    } catch (const InputError& e) {
        const std::string msg = e.what();
        for (const char* f : fragments)
            QVERIFY2(msg.find(f) != std::string::npos, (msg + "  -- missing: " + f).c_str());
    }
}

struct Recorder : DocumentListener {
    std::vector<ChangeSet> changes;
    int resets = 0;
    void documentChanged(const ChangeSet& c) override { changes.push_back(c); }
    void documentReset() override { ++resets; }
};

} // namespace

class TestModel : public QObject {
    Q_OBJECT
private slots:
    void readsAndWritesEveryField() {
        const Project p = projectFromJson(smallDesign(), "design.json");
        QCOMPARE(p.racks.size(), size_t(2));
        QCOMPARE(p.racks[1].x.value(), 1.6);
        QCOMPARE(p.buildings[0].powerCapacity.value(), 5e6);
        QCOMPARE(p.coolingLoops[0].redundancy, std::string("N+1")); // default kept when absent
        const ojson out = projectToJson(p);
        // The writer emits every field, so a second read gives the same document.
        QCOMPARE(projectToJson(projectFromJson(out, "again.json")).dump(), out.dump());
        QVERIFY(out["racks"][0].contains("spare"));
    }

    void badInputNamesFileEntityAndField() {
        auto j = smallDesign();
        j["racks"][0]["x_m"] = "three";
        expectError(j, {"design.json", "rack 'r1' (R1)", "x_m", "expected a number"});

        j = smallDesign();
        j["racks"][1]["id"] = "r1";
        expectError(j, {"rack 'r1' (R2)", "duplicate id"});

        j = smallDesign();
        j["racks"][0]["row"] = "nowhere";
        expectError(j, {"rack 'r1'", "field 'row'", "unknown id 'nowhere'"});

        j = smallDesign();
        j["racks"][0]["row"] = "h1";
        expectError(j, {"'h1' is a hall, expected a row"});

        j = smallDesign();
        j["buildings"][0]["power_capacity_w"] = -1.0;
        expectError(j, {"building 'b1' (B1)", "power_capacity_w", "outside the accepted range"});

        j = smallDesign();
        j["buildings"][0]["power_capacity_w"] = 1e12; // 1 TW: absurd
        expectError(j, {"power_capacity_w", "outside"});

        j = smallDesign();
        j["training_jobs"] = ojson::parse(R"([{"id": "t", "name": "Huge", "gpus": 1e12}])");
        expectError(j, {"training job 't' (Huge)", "gpus", "outside"});

        j = smallDesign();
        j["racks"][0]["colour"] = "red";
        expectError(j, {"rack 'r1'", "colour", "unknown field"});

        j = smallDesign();
        j["cooling_loops"][0]["redundancy"] = "3N";
        expectError(j, {"cooling loop 'l1'", "redundancy", "'3N' is not one of: N, N+1, 2N"});

        j = smallDesign();
        j["schema_version"] = 99;
        expectError(j, {"schema_version", "newer than this build supports"});

        j = smallDesign();
        j["format"] = "something-else";
        expectError(j, {"format", "not a ClusterTwin design"});

        j = smallDesign();
        j["racks"][0]["cdu_count"] = 1.5;
        expectError(j, {"unknown field"});

        j = smallDesign();
        j["cooling_loops"][0]["cdu_count"] = 1.5;
        expectError(j, {"cdu_count", "whole number"});

        j = smallDesign();
        j["fabrics"] = ojson::parse(R"([{"id": "fab", "name": "Fab", "switch": "sw-51t", "tiers": 3, "oversubscription": [1]}])");
        expectError(j, {"fabric 'fab'", "oversubscription", "2 for 3 tiers"});
    }

    void transactionEmitsOneTypedChangeSet() {
        Document doc(projectFromJson(smallDesign(), "d.json"));
        Recorder rec;
        doc.addListener(&rec);
        Transaction tx(doc, "Move racks");
        tx.setProperty("r1", "x_m", 2.2);
        tx.setProperty("r1", "y_m", 3.0);
        tx.setProperty("r2", "x_m", 2.8);
        QCOMPARE(doc.project().racks[0].x.value(), 2.2); // visible inside the transaction
        QVERIFY(rec.changes.empty());                     // nothing emitted before commit
        const ChangeSet cs = tx.commit();
        QCOMPARE(rec.changes.size(), size_t(1));
        QCOMPARE(cs.entities.size(), size_t(2)); // two entities, r1's two edits merged
        QCOMPARE(cs.entities[0].id, std::string("r1"));
        QCOMPARE(cs.entities[0].kind, EntityKind::RackPlacement);
        QCOMPARE(cs.entities[0].properties, (std::vector<std::string>{"x_m", "y_m"}));
        QCOMPARE(cs.entities[0].before["x_m"].get<double>(), 1.0);
        QCOMPARE(cs.entities[0].after["x_m"].get<double>(), 2.2);
        QVERIFY(!cs.structural());
        doc.removeListener(&rec);
    }

    void dragMergesAndNoOpsAreDropped() {
        Document doc(projectFromJson(smallDesign(), "d.json"));
        Transaction tx(doc, "Drag");
        for (int i = 1; i <= 10; ++i) tx.setProperty("r1", "x_m", 1.0 + 0.1 * i);
        tx.setProperty("r2", "x_m", 1.6); // unchanged value: a no-op
        const ChangeSet cs = tx.commit();
        QCOMPARE(cs.entities.size(), size_t(1));
        QCOMPARE(cs.entities[0].after["x_m"].get<double>(), 2.0);
        const std::uint64_t rev = doc.revision();
        Transaction none(doc, "Nothing");
        none.setProperty("r2", "x_m", 1.6);
        QVERIFY(none.commit().empty());
        QCOMPARE(doc.revision(), rev); // no event, no new revision
    }

    void undoRedoRoundTripsTheSerializedDocument() {
        Document doc(projectFromJson(smallDesign(), "d.json"));
        const std::string before = dumpJson(projectToJson(doc.project()));
        Transaction tx(doc, "Edit");
        tx.setProperty("r1", "rack_type", "gb300-nvl72");
        tx.remove("r2");
        ojson rack = projectToJson(doc.project())["racks"][0];
        rack["id"] = "r3";
        rack["name"] = "R3";
        rack["x_m"] = 5.0;
        tx.add(EntityKind::RackPlacement, rack);
        tx.setAssumption("wacc", Assumption{0.1, 0.08, 0.12, "", "test", false});
        const ChangeSet cs = tx.commit();
        QVERIFY(cs.structural());
        const std::string after = dumpJson(projectToJson(doc.project()));
        QVERIFY(after != before);
        doc.apply(cs.inverted()); // undo
        QCOMPARE(dumpJson(projectToJson(doc.project())), before);
        doc.apply(cs); // redo
        QCOMPARE(dumpJson(projectToJson(doc.project())), after);
        QVERIFY(doc.index().find("r3").has_value());
        QVERIFY(!doc.index().find("r2").has_value());
    }

    /// Removing several entities as one batch (one pass per kind, one index rebuild) gives the same
    /// document as removing them one by one, and undo puts each back at its own position.
    void batchRemovalMatchesOneByOneAndUndoes() {
        const auto grow = [](Document& doc) {
            Transaction tx(doc, "Grow");
            for (int i = 3; i <= 8; ++i) {
                ojson rack = projectToJson(doc.project())["racks"][0];
                rack["id"] = "r" + std::to_string(i);
                rack["name"] = "R" + std::to_string(i);
                rack["x_m"] = 1.0 + 0.6 * i;
                tx.add(EntityKind::RackPlacement, rack);
            }
            tx.commit();
        };
        Document one(projectFromJson(smallDesign(), "d.json")), batch(projectFromJson(smallDesign(), "d.json"));
        grow(one);
        grow(batch);
        const std::string before = dumpJson(projectToJson(batch.project()));
        // Out of order on purpose: r6, r2, r7, r4 (positions 5, 1, 6, 3 of r1 ... r8).
        const std::vector<std::string> gone = {"r6", "r2", "r7", "r4"};
        {
            Transaction tx(one, "One by one");
            for (const auto& id : gone) tx.remove(id);
            tx.commit();
        }
        Transaction tx(batch, "Batch");
        tx.remove(gone);
        tx.setProperty("r8", "name", "Last"); // after the batch: r8's slot is found anew
        const ChangeSet cs = tx.commit();
        Transaction rename(one, "Rename");
        rename.setProperty("r8", "name", "Last");
        rename.commit();
        const std::string after = dumpJson(projectToJson(batch.project()));
        QCOMPARE(after, dumpJson(projectToJson(one.project())));
        std::vector<std::string> ids;
        for (const auto& r : batch.project().racks) ids.push_back(r.id);
        QCOMPARE(ids, (std::vector<std::string>{"r1", "r3", "r5", "r8"}));
        for (size_t i = 0; i < ids.size(); ++i) QCOMPARE(batch.index().find(ids[i])->index, i);
        for (const auto& id : gone) QVERIFY(!batch.index().find(id));
        batch.apply(cs.inverted()); // undo: the four back in their places (one merge pass)
        QCOMPARE(dumpJson(projectToJson(batch.project())), before);
        for (size_t i = 0; i < batch.project().racks.size(); ++i)
            QCOMPARE(batch.index().find(batch.project().racks[i].id)->index, i);
        batch.apply(cs); // redo
        QCOMPARE(dumpJson(projectToJson(batch.project())), after);
    }

    void invalidEditLeavesTheModelUnchanged() {
        Document doc(projectFromJson(smallDesign(), "d.json"));
        const std::string before = dumpJson(projectToJson(doc.project()));
        {
            Transaction tx(doc, "Bad");
            QVERIFY_THROWS_EXCEPTION(InputError, tx.setProperty("b1", "power_capacity_w", -5.0));
            QVERIFY_THROWS_EXCEPTION(InputError, tx.setProperty("r1", "x_m", "abc"));
            QVERIFY_THROWS_EXCEPTION(InputError, tx.setProperty("r1", "id", "zz"));
            QVERIFY_THROWS_EXCEPTION(InputError, tx.setProperty("nope", "x_m", 1.0));
            tx.setProperty("r1", "row", "missing-row"); // only caught by the reference check at commit
            QVERIFY_THROWS_EXCEPTION(InputError, tx.commit());
        }
        QCOMPARE(dumpJson(projectToJson(doc.project())), before);
        {
            Transaction tx(doc, "Abandoned");
            tx.setProperty("r1", "x_m", 9.0);
        } // destroyed uncommitted: rolled back
        QCOMPARE(dumpJson(projectToJson(doc.project())), before);
        Transaction tx(doc, "Orphaning");
        tx.remove("row1"); // racks still reference it
        QVERIFY_THROWS_EXCEPTION(InputError, tx.commit());
        QCOMPARE(dumpJson(projectToJson(doc.project())), before);
    }

    /// A document checks an edit against the design it knows to be valid by looking at what the edit
    /// touched (and what refers to what it removed): the refusal must be validateProject's, word for word.
    void editChecksGiveTheWholeDesignChecksMessages() {
        // The shipped catalog, with one rack type made huge so a few racks cross the 10-million-GPU limit.
        std::vector<CatalogItem> items = loadCatalogDirectory(CTWIN_SOURCE_DATA_DIR "/catalog").items();
        for (auto& item : items)
            if (item.id == "gb300-nvl72") item.values["gpus"].base = 4e6;
        const Catalog catalog(std::move(items));
        Document doc(projectFromJson(smallDesign(), "d.json", &catalog), &catalog);
        const auto wholeDesignMessage = [&](const std::function<void(Project&)>& edit) -> std::string {
            Project p = doc.project();
            edit(p);
            try {
                validateProject(p, "", &catalog);
            } catch (const InputError& e) {
                return std::string(e.what());
            }
            return std::string("(valid)");
        };
        const auto refusal = [&](const std::function<void(Transaction&)>& edit) -> std::string {
            const std::string before = dumpJson(projectToJson(doc.project()));
            std::string message = "(committed)";
            {
                Transaction tx(doc, "Edit");
                edit(tx);
                try {
                    tx.commit();
                } catch (const InputError& e) {
                    message = e.what();
                }
            }
            if (message != "(committed)" && dumpJson(projectToJson(doc.project())) != before)
                return "(the refused edit changed the document)";
            return message;
        };
        // The first edit checks the whole design; the later ones only what they touch.
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r1", "name", "Rack 1"); }),
                 std::string("(committed)"));
        const auto danglingRow = [](Project& p) { p.racks[0].row = "missing-row"; };
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r1", "row", "missing-row"); }),
                 wholeDesignMessage(danglingRow));
        const auto wrongKind = [](Project& p) { p.racks[1].coolingLoop = "f1"; };
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r2", "cooling_loop", "f1"); }),
                 wholeDesignMessage(wrongKind));
        const auto unknownType = [](Project& p) { p.racks[1].rackType = "no-such-rack"; };
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r2", "rack_type", "no-such-rack"); }),
                 wholeDesignMessage(unknownType));
        // A removal breaks whoever refers to the removed entity: the racks on the row, the racks on the loop.
        const auto noRow = [](Project& p) { p.rows.clear(); };
        QCOMPARE(refusal([](Transaction& tx) { tx.remove("row1"); }), wholeDesignMessage(noRow));
        const auto noFeed = [](Project& p) { p.powerFeeds.clear(); };
        QCOMPARE(refusal([](Transaction& tx) { tx.remove("f1"); }), wholeDesignMessage(noFeed));
        // The GPU total follows each edit's difference: 4M + 72, then 8M, then a third 4M rack is refused.
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r1", "rack_type", "gb300-nvl72"); }),
                 std::string("(committed)"));
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r2", "rack_type", "gb300-nvl72"); }),
                 std::string("(committed)"));
        ojson third = projectToJson(doc.project())["racks"][0];
        third["id"] = "r3";
        third["x_m"] = 2.2;
        const auto thirdHuge = [&](Project& p) {
            p.racks.push_back(p.racks[0]);
            p.racks.back().id = "r3";
        };
        const std::string tooMany = wholeDesignMessage(thirdHuge);
        QVERIFY2(tooMany.find("more than the supported") != std::string::npos, tooMany.c_str());
        QCOMPARE(refusal([&](Transaction& tx) { tx.add(EntityKind::RackPlacement, third); }), tooMany);
        // Taking one back makes room; the refused edit left the count as it was.
        QCOMPARE(refusal([](Transaction& tx) { tx.setProperty("r2", "rack_type", "gb200-nvl72"); }),
                 std::string("(committed)"));
        QCOMPARE(refusal([&](Transaction& tx) { tx.add(EntityKind::RackPlacement, third); }),
                 std::string("(committed)"));
        // Undo (apply of the inverse) is checked the same way: removing r3 and putting r2 back is fine.
        Transaction tx(doc, "Remove r3");
        tx.remove("r3");
        const ChangeSet cs = tx.commit();
        doc.apply(cs.inverted());
        QVERIFY(doc.index().find("r3").has_value());
    }

    void dependentsFollowReferences() {
        Document doc(projectFromJson(smallDesign(), "d.json"));
        const auto deps = doc.dependents("l1");
        QCOMPARE(deps, (std::vector<std::string>{"r1", "r2"}));
        QCOMPARE(doc.dependents("h1"), (std::vector<std::string>{"l1", "row1"}));
    }
};

QTEST_APPLESS_MAIN(TestModel)
#include "test_model.moc"
