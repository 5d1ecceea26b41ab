// Issue 14: writer and reader agree by construction (a property test over random designs), saves through
// symbolic links, stale temporaries, .ctwin integrity checks, assumption ranges and messages.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calendar_date.h"
#include "assumption_values.h"
#include "atomic_write.h"
#include "catalog.h"
#include "design_file.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "results_json.h"
#include <sqlite3.h>

using namespace ctwin;
namespace fs = std::filesystem;

namespace {
const std::string kData = CTWIN_SOURCE_DATA_DIR;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}
void writeAll(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const model::InputError& e) {
        return e.what();
    }
    return {};
}

void sql(const std::string& db, const std::string& statement) {
    sqlite3* h = nullptr;
    QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    QCOMPARE(sqlite3_exec(h, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(h);
}

/// A sticky, world-writable folder (mode 1777, like /tmp) owned by `owner`; empty when it cannot be made.
std::string sharedFolder(const std::string& dir, uid_t owner) {
    fs::create_directories(dir);
    if (::chown(dir.c_str(), owner, owner) != 0 || ::chmod(dir.c_str(), 01777) != 0) return {};
    return dir;
}
/// A symbolic link at `link` to `to`, owned by `owner` (lchown: needs root for another user).
bool linkOwnedBy(const std::string& to, const std::string& link, uid_t owner) {
    fs::remove(link);
    fs::create_symlink(to, link);
    return ::lchown(link.c_str(), owner, owner) == 0;
}
constexpr uid_t kNobody = 65534;

/// Fills every field of an entity from its visitFields description: numbers anywhere in their bounds
/// (full double precision), optional ones absent half the time, choices from their list, references to
/// entities made earlier, catalog references to items of the right category.
class Randomizer {
public:
    Randomizer(std::mt19937_64& rng, const model::Project& p, const model::Catalog& c, std::string id)
        : m_rng(rng), m_project(p), m_catalog(c), m_id(std::move(id)) {}
    void text(const char* key, std::string& v) {
        const std::string_view k(key);
        if (k == "id") v = m_id;
        else if (k == "name") v = pick({"A", "Hall \"7\"", "Zürich – east", "", "tab\there", "x\\y"});
        else if (model::isDateField(k)) v = pick({"", "2028-02-29", "2031-07"}); // ISO dates only
        else v = pick({"", "some text", "ünïcode ✓"});
    }
    void texts(const char*, std::vector<std::string>& v) {
        v.clear();
        for (int i = uniformInt(0, 2); i > 0; --i) v.push_back(pick({"source a", "https://example.com/x?y=1"}));
    }
    // An entity never refers twice to the same entity through two fields (the reader refuses a rack whose
    // feed_b is its feed_a and a link whose ends are equal): a reference picks among the ids still unused.
    void ref(const char*, std::string& v, model::EntityRef r) {
        const auto ids = unused(idsOf(r.kind));
        missingParent = missingParent || (ids.empty() && !r.optional);
        v = ids.empty() || (r.optional && coin()) ? std::string() : ids[static_cast<size_t>(uniformInt(0, static_cast<int>(ids.size()) - 1))];
        m_used.insert(v);
    }
    void refList(const char*, std::vector<std::string>& v, model::EntityKind kind) {
        v.clear();
        for (const auto& id : idsOf(kind))
            if (coin()) v.push_back(id);
    }
    void endpoint(const char*, std::string& v) {
        auto ids = idsOf(model::EntityKind::Site);
        for (const auto& b : idsOf(model::EntityKind::Building)) ids.push_back(b);
        ids = unused(ids);
        missingParent = missingParent || ids.empty();
        v = ids.empty() ? std::string() : ids[static_cast<size_t>(uniformInt(0, static_cast<int>(ids.size()) - 1))];
        m_used.insert(v);
    }
    void catalogRef(const char*, std::string& v, const char* category, bool optional = false) {
        const auto items = m_catalog.byCategory(category);
        v = items.empty() || (optional && coin()) ? std::string()
                                                  : items[static_cast<size_t>(uniformInt(0, static_cast<int>(items.size()) - 1))]->id;
    }
    void catalogRefList(const char*, std::vector<std::string>& v, const char* category) {
        v.clear();
        for (const auto* item : m_catalog.byCategory(category))
            if (coin()) v.push_back(item->id);
    }
    void choice(const char*, std::string& v, std::initializer_list<const char*> allowed) {
        v = *(allowed.begin() + uniformInt(0, static_cast<int>(allowed.size()) - 1));
    }
    void choiceList(const char*, std::vector<std::string>& v, std::initializer_list<const char*> allowed) {
        v.clear();
        for (const char* a : allowed)
            if (coin()) v.push_back(a);
    }
    void number(const char*, double& v, model::Bounds b) { v = value(b); }
    template <class Q> void quantity(const char*, Q& q, model::Bounds b) { q = Q::from_value(value(b)); }
    void optionalNumber(const char*, std::optional<double>& v, model::Bounds b) {
        if (coin()) v.reset();
        else v = value(b);
    }
    template <class Q> void optionalQuantity(const char*, std::optional<Q>& q, model::Bounds b) {
        if (coin()) q.reset();
        else q = Q::from_value(value(b));
    }
    void integer(const char*, int& v, model::Bounds b) {
        v = uniformInt(static_cast<int>(b.min), static_cast<int>(std::min(b.max, b.min + 8)));
    }
    void flag(const char*, bool& v) { v = coin(); }
    void numbers(const char*, std::vector<double>& v, model::Bounds b) {
        v.clear();
        for (int i = uniformInt(0, 2); i > 0; --i) v.push_back(value(b));
    }
    void points(const char*, std::vector<model::Point2>& v) {
        v.clear();
        for (int i = uniformInt(0, 3); i > 0; --i) v.push_back({value({-50, 50}), value({-50, 50})});
    }
    /// A required reference had nothing to point at: the entity is not added.
    bool missingParent = false;

private:
    bool coin() { return std::uniform_int_distribution<int>(0, 1)(m_rng) == 1; }
    int uniformInt(int lo, int hi) { return std::uniform_int_distribution<int>(lo, std::max(lo, hi))(m_rng); }
    std::string pick(std::initializer_list<const char*> options) {
        return *(options.begin() + uniformInt(0, static_cast<int>(options.size()) - 1));
    }
    /// Anywhere in [min, max]: an end, or a full-precision value in the first 1,000 units above min.
    double value(model::Bounds b) {
        switch (uniformInt(0, 5)) {
        case 0: return b.min;
        case 1: return b.max;
        default: return std::min(b.max, b.min + std::uniform_real_distribution<double>(0.0, 1000.0)(m_rng));
        }
    }
    std::vector<std::string> unused(std::vector<std::string> ids) const {
        std::erase_if(ids, [&](const std::string& id) { return m_used.count(id) > 0; });
        return ids;
    }
    std::vector<std::string> idsOf(model::EntityKind kind) const {
        std::vector<std::string> ids;
        m_project.withCollection(kind, [&](const auto& c) {
            for (const auto& e : c) ids.push_back(e.id);
        });
        return ids;
    }
    std::mt19937_64& m_rng;
    const model::Project& m_project;
    const model::Catalog& m_catalog;
    std::string m_id;
    std::set<std::string> m_used;
};

model::Project randomDesign(std::mt19937_64& rng, const model::Catalog& catalog, const model::AssumptionSet& defaults) {
    model::Project p;
    if (rng() % 4 == 0) p.info.id.clear(); // a design without a project id (the writer's rule fills it)
    else p.info.id = "random-" + std::to_string(rng() % 1000);
    p.info.name = rng() % 2 ? "Random design" : "";
    // A few assumptions overridden, within their valid range.
    for (const auto& [key, a] : defaults)
        if (rng() % 5 == 0) {
            model::Assumption o = a;
            o.min = -std::numeric_limits<double>::infinity(), o.max = std::numeric_limits<double>::infinity();
            o.base = a.low + (a.high - a.low) * static_cast<double>(rng() % 1000) / 999.0;
            p.assumptions[key] = o;
        }
    int serial = 0;
    for (auto kind : model::kAllEntityKinds) {
        const int count = static_cast<int>(rng() % 4);
        for (int i = 0; i < count; ++i)
            p.withCollection(kind, [&](auto& c) {
                typename std::decay_t<decltype(c)>::value_type e;
                Randomizer r(rng, p, catalog, std::string(model::entityCollectionKey(kind)) + "-" + std::to_string(++serial));
                e.visitFields(r);
                if (!r.missingParent) c.push_back(std::move(e));
            });
    }
    for (auto& f : p.fabrics) // the reader's cross-field rule on a fabric (see Randomizer::ref for the others)
        f.oversubscription.resize(f.tiers > 1 && rng() % 2 ? static_cast<size_t>(f.tiers - 1) : 0, 1.0);
    return p;
}

std::string evaluateText(const model::Project& p, const model::Catalog& c, const model::AssumptionSet& d) {
    try {
        return cost::resultsToJson(cost::evaluate(p, c, d)).dump();
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}
} // namespace

class TestHardening : public QObject {
    Q_OBJECT
    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    QTemporaryDir m_dir;
    std::string tmp(const std::string& name) { return m_dir.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void initTestCase() {
        m_catalog = model::loadCatalogDirectory(kData + "/catalog");
        m_defaults = model::loadAssumptionsFile(kData + "/assumptions.json");
    }

    /// Property: random designs (0-3 entities of every kind, optional fields present or absent, values
    /// anywhere in their bounds) save -> open -> save byte-identically through JSON and .ctwin, and the
    /// engine gives the same results (or the same error) before and after.
    void randomDesignsRoundTrip() {
        std::mt19937_64 rng(14);
        int evaluated = 0;
        for (int n = 0; n < 60; ++n) {
            const model::Project p = randomDesign(rng, m_catalog, m_defaults);
            try {
                model::validateProject(p, "random", &m_catalog);
            } catch (const model::InputError& e) {
                QFAIL(qPrintable(QString("generator made an invalid design: ") + e.what()));
            }
            const std::string json = tmp("r.json"), ctwin = tmp("r.ctwin"), again = tmp("r2.json");
            store::saveDesign(p, json);
            const model::Project fromJson = store::loadDesign(json, &m_catalog);
            store::saveDesign(fromJson, ctwin);
            const model::Project fromCtwin = store::loadDesign(ctwin, &m_catalog);
            store::saveDesign(fromCtwin, again);
            QCOMPARE(readAll(again), readAll(json));
            // The design as first loaded is the reference (an empty project id became "project" there).
            const std::string before = evaluateText(fromJson, m_catalog, m_defaults);
            const std::string after = evaluateText(fromCtwin, m_catalog, m_defaults);
            if (after != before) {
                size_t at = 0;
                while (at < before.size() && at < after.size() && before[at] == after[at]) ++at;
                QFAIL(qPrintable(QString::fromStdString("evaluation differs at " + std::to_string(at) + ": " +
                                                        before.substr(at > 80 ? at - 80 : 0, 200) + " | " +
                                                        after.substr(at > 80 ? at - 80 : 0, 200))));
            }
            if (!p.info.id.empty()) QCOMPARE(evaluateText(p, m_catalog, m_defaults), before);
            evaluated += before.rfind("error:", 0) != 0;
        }
        qInfo("%d of 60 random designs evaluated without an engine error", evaluated);
    }

    /// The issue's minimal design: no project object; convert onto itself, then it still validates.
    void designWithoutProjectRoundTrips() {
        const std::string path = tmp("noproject.json");
        writeAll(path, R"({"format":"clustertwin-design","schema_version":1})");
        const model::Project p = store::loadDesign(path, &m_catalog);
        QCOMPARE(p.info.id, std::string(model::kDefaultProjectId));
        store::saveDesign(p, path);
        QCOMPARE(store::loadDesign(path, &m_catalog).info.id, std::string("project"));
        store::saveDesign(p, tmp("noproject.ctwin"));
        QCOMPARE(store::loadDesign(tmp("noproject.ctwin"), &m_catalog).info.id, std::string("project"));
    }

    /// Saving onto a symbolic link writes the file it points to, in all three writers.
    void saveThroughSymlink() {
        const model::Project p = store::loadDesign(kData + "/reference/vera-rubin-504.json", &m_catalog);
        for (const std::string ext : {".json", ".ctwin", ".txt"}) {
            const std::string real = tmp("real" + ext), link = tmp("link" + ext), chain = tmp("chain" + ext);
            writeAll(real, "old");
            fs::remove(link), fs::remove(chain);
            fs::create_symlink("real" + ext, link); // relative, resolved against the link's folder
            fs::create_symlink(link, chain);
            if (ext == ".txt") model::writeFileAtomic(chain, "new");
            else store::saveDesign(p, chain);
            QVERIFY(fs::is_symlink(link));
            QVERIFY(fs::is_symlink(chain));
            QVERIFY(readAll(real) != "old");
            if (ext != ".txt") QCOMPARE(store::loadDesign(chain, &m_catalog).racks.size(), p.racks.size());
        }
        fs::remove(tmp("loop")), fs::create_symlink("loop", tmp("loop"));
        QVERIFY(errorOf([&] { model::writeFileAtomic(tmp("loop"), "x"); }).find("symbolic links") != std::string::npos);
    }

    // --- links in shared folders (issue 27): the kernel's fs.protected_symlinks rule, applied by the save
    // itself (it resolves links and renames over the file they lead to, so the kernel never follows them).

    /// Another user's link in a shared folder is refused, in all three writers; the file it points to and
    /// the link stay as they were.
    void sharedFolderRefusesAnotherUsersLink() {
        if (::geteuid() != 0) QSKIP("needs root (a link owned by another user)");
        const std::string shared = sharedFolder(tmp("shared-a"), 0);
        QVERIFY(!shared.empty());
        const model::Project p = store::loadDesign(kData + "/reference/vera-rubin-504.json", &m_catalog);
        for (const std::string ext : {".json", ".ctwin", ".txt"}) {
            const std::string victim = tmp("victim" + ext), link = shared + "/planted" + ext;
            writeAll(victim, "precious");
            QVERIFY(linkOwnedBy(victim, link, kNobody));
            const std::string e = errorOf([&] {
                if (ext == ".txt")
                    model::writeFileAtomic(link, "new");
                else
                    store::saveDesign(p, link);
            });
            QVERIFY2(e.find(link) != std::string::npos, e.c_str());
            QVERIFY2(
                e.find(
                    "is a symbolic link owned by another user in a shared folder (sticky, world-writable); "
                    "not followed") != std::string::npos,
                e.c_str());
            QCOMPARE(readAll(victim), std::string("precious"));
            QVERIFY(fs::is_symlink(link));
        }
    }

    /// The effective user's own link in a shared folder is followed (any user can make such a folder).
    void sharedFolderFollowsOwnLink() {
        const std::string shared = sharedFolder(tmp("shared-b"), ::geteuid());
        QVERIFY(!shared.empty());
        const std::string real = tmp("own-target.txt"), link = shared + "/mine.txt";
        writeAll(real, "old");
        QVERIFY(linkOwnedBy(real, link, ::geteuid()));
        model::writeFileAtomic(link, "new");
        QCOMPARE(readAll(real), std::string("new"));
        QVERIFY(fs::is_symlink(link));
    }

    /// A link owned by the shared folder's owner is followed, as the kernel does (the folder's owner could
    /// replace anything in it anyway).
    void sharedFolderFollowsItsOwnersLink() {
        if (::geteuid() != 0) QSKIP("needs root (a folder and link owned by another user)");
        const std::string shared = sharedFolder(tmp("shared-c"), kNobody);
        QVERIFY(!shared.empty());
        const std::string real = tmp("owner-target.txt"), link = shared + "/owners.txt";
        writeAll(real, "old");
        QVERIFY(linkOwnedBy(real, link, kNobody));
        const std::string e = errorOf([&] { model::writeFileAtomic(link, "new"); });
        QVERIFY2(e.empty(), e.c_str());
        QCOMPARE(readAll(real), std::string("new"));
    }

    /// Every hop of a chain is judged: our own link leading to another user's link in a shared folder is
    /// refused at that hop, and the message names both.
    void chainRefusedAtTheForeignHop() {
        if (::geteuid() != 0) QSKIP("needs root (a link owned by another user)");
        const std::string shared = sharedFolder(tmp("shared-d"), 0);
        QVERIFY(!shared.empty());
        const std::string real = tmp("chain-target.txt"), hop = shared + "/hop.txt", start = tmp("start.txt");
        writeAll(real, "precious");
        QVERIFY(linkOwnedBy(real, hop, kNobody));
        QVERIFY(linkOwnedBy(hop, start, ::geteuid()));
        const std::string e = errorOf([&] { model::writeFileAtomic(start, "new"); });
        QVERIFY2(e.find(start + ": leads to " + hop +
                        ", a symbolic link owned by another user in a shared "
                        "folder") != std::string::npos,
                 e.c_str());
        QCOMPARE(readAll(real), std::string("precious"));
        // The same chain through a link of the folder's owner (root here) is followed.
        QVERIFY(linkOwnedBy(real, hop, 0));
        model::writeFileAtomic(start, "new");
        QCOMPARE(readAll(real), std::string("new"));
    }

    /// The rule is about shared folders only: another user's link in a folder that is sticky but not
    /// world-writable, or world-writable but not sticky, is followed (as the kernel does).
    void foreignLinkOutsideASharedFolderIsFollowed() {
        if (::geteuid() != 0) QSKIP("needs root (a link owned by another user)");
        for (const auto& [name, mode] : {std::pair{"sticky-only", 01755}, std::pair{"writable-only", 0777}}) {
            const std::string dir = tmp(name);
            fs::create_directories(dir);
            QVERIFY(::chmod(dir.c_str(), static_cast<mode_t>(mode)) == 0);
            const std::string real = tmp(std::string(name) + "-target.txt"), link = dir + "/link.txt";
            writeAll(real, "old");
            QVERIFY(linkOwnedBy(real, link, kNobody));
            const std::string e = errorOf([&] { model::writeFileAtomic(link, "new"); });
            QVERIFY2(e.empty(), (name + std::string(": ") + e).c_str());
            QCOMPARE(readAll(real), std::string("new"));
        }
    }

    /// Temporaries of killed saves go at the next save; a temporary in use, a recent one and other files
    /// matching only loosely stay.
    void staleTemporariesRemoved() {
        const std::string target = tmp("doc.ctwin");
        const std::string stale = tmp(".doc.ctwin.tmp-a1B2c3"), wal = stale + "-wal", shm = stale + "-shm";
        const std::string recent = tmp(".doc.ctwin.tmp-zzzzzz"), other = tmp(".doc.ctwin.tmp-notours"),
                          orphanWal = tmp(".doc.ctwin.tmp-q9q9q9-wal"), busy = tmp(".doc.ctwin.tmp-busy01");
        for (const auto& f : {stale, wal, shm, recent, other, orphanWal, busy}) writeAll(f, "x");
        const auto old = fs::file_time_type::clock::now() - std::chrono::hours(2);
        for (const auto& f : {stale, wal, shm, other, orphanWal, busy}) fs::last_write_time(f, old);
        const int held = ::open(busy.c_str(), O_RDONLY);
        QVERIFY(::flock(held, LOCK_EX) == 0); // as a running save holds it
        const model::Project p = store::loadDesign(kData + "/reference/vera-rubin-504.json", &m_catalog);
        store::saveDesign(p, target);
        ::close(held);
        for (const auto& f : {stale, wal, shm, orphanWal}) QVERIFY2(!fs::exists(f), f.c_str());
        for (const auto& f : {recent, other, busy}) QVERIFY2(fs::exists(f), f.c_str());
        QVERIFY(!fs::exists(target + "-wal"));
    }

    /// Failures name the file the user gave, never the temporary; the old file stays.
    void messagesNameTheTarget() {
        const model::Project p = store::loadDesign(kData + "/reference/vera-rubin-504.json", &m_catalog);
        fs::create_directories(tmp("x.json"));
        std::string e = errorOf([&] { store::saveDesign(p, tmp("x.json")); });
        QVERIFY2(e.find("x.json") != std::string::npos && e.find("is a directory") != std::string::npos, e.c_str());
        e = errorOf([&] { store::loadDesign(tmp("x.json"), &m_catalog); });
        QVERIFY2(e.find("is a directory") != std::string::npos, e.c_str());
        const std::string ro = tmp("ro.ctwin");
        store::saveDesign(p, ro);
        const std::string before = readAll(ro);
        ::chmod(ro.c_str(), 0444);
        e = errorOf([&] { store::saveDesign(p, ro); });
        QVERIFY2(e.find("ro.ctwin") != std::string::npos && e.find("read-only") != std::string::npos, e.c_str());
        QVERIFY2(e.find(".tmp-") == std::string::npos, e.c_str());
        QCOMPARE(readAll(ro), before);
        // /dev/full: every write fails with ENOSPC; the message names the target.
        if (fs::exists("/dev/full")) {
            e = errorOf([&] { model::writeFileAtomic("/dev/full", "x"); });
            QVERIFY2(e.find("/dev/full") != std::string::npos, e.c_str());
        }
        // 1e400: file, line and column.
        writeAll(tmp("big.json"), "{\"format\": \"clustertwin-design\",\n \"schema_version\": 2,\n \"sites\": [{\"lat_deg\": 1e400}]}");
        e = errorOf([&] { store::loadDesign(tmp("big.json"), &m_catalog); });
        QVERIFY2(e.find("big.json") != std::string::npos && e.find("line 3") != std::string::npos &&
                     e.find("1e400") != std::string::npos, e.c_str());
    }

    /// schema_version is read exactly; a .ctwin with two version rows or another format is refused; a
    /// WAL-mode document in a read-only folder opens (immutable).
    void schemaAndFormatChecks() {
        for (const char* v : {"4294967297", "18446744073709551615", "-1", "1.5", "\"2\""}) {
            writeAll(tmp("v.json"), std::string(R"({"format":"clustertwin-design","schema_version":)") + v + "}");
            const std::string e = errorOf([&] { store::loadDesign(tmp("v.json"), &m_catalog); });
            QVERIFY2(e.find("schema_version") != std::string::npos, (std::string(v) + ": " + e).c_str());
        }
        const model::Project p = store::loadDesign(kData + "/reference/vera-rubin-504.json", &m_catalog);
        store::saveDesign(p, tmp("two.ctwin"));
        sql(tmp("two.ctwin"), "INSERT INTO schema_version VALUES (2)");
        QVERIFY(errorOf([&] { store::loadDesign(tmp("two.ctwin"), &m_catalog); }).find("more than one") != std::string::npos);
        store::saveDesign(p, tmp("fmt.ctwin"));
        sql(tmp("fmt.ctwin"), "UPDATE meta SET value = '\"something-else\"' WHERE key = 'format'");
        QVERIFY(errorOf([&] { store::loadDesign(tmp("fmt.ctwin"), &m_catalog); }).find("meta.format") != std::string::npos);
        // WAL mode, folder made read-only. Root ignores the mode bits, so this only bites as a user.
        fs::create_directories(tmp("ro"));
        store::saveDesign(p, tmp("ro/wal.ctwin"));
        sql(tmp("ro/wal.ctwin"), "PRAGMA journal_mode=WAL");
        ::chmod(tmp("ro").c_str(), 0555);
        QCOMPARE(store::loadDesign(tmp("ro/wal.ctwin"), &m_catalog).racks.size(), p.racks.size());
        ::chmod(tmp("ro").c_str(), 0755);
    }

    /// One range check: the loader requires min/max; a design's assumptions must be known keys (with a
    /// suggestion) within the range; --set and sweeps refuse values outside it.
    void assumptionRanges() {
        for (const auto& [key, a] : m_defaults) {
            QVERIFY2(std::isfinite(a.min) && std::isfinite(a.max), key.c_str());
            QVERIFY2(a.min <= a.low && a.high <= a.max, key.c_str());
        }
        model::AssumptionSet design;
        design["wac"] = m_defaults.at("wacc");
        std::string e = errorOf([&] { cost::checkDesignAssumptions(design, m_defaults, "d.json"); });
        QVERIFY2(e.find("d.json") != std::string::npos && e.find("did you mean 'wacc'") != std::string::npos, e.c_str());
        design.clear();
        design["wacc"] = m_defaults.at("wacc");
        design["wacc"].base = design["wacc"].high = 1e308;
        e = errorOf([&] { cost::checkDesignAssumptions(design, m_defaults, "d.json"); });
        QVERIFY2(e.find("assumption 'wacc'") != std::string::npos && e.find("valid range") != std::string::npos, e.c_str());
        // Units: the unit proper is compared, so the description after it and the words for a pure number do
        // not matter, while a different unit is refused (the value would be off by the conversion).
        QVERIFY(cost::sameAssumptionUnit("1/year", "1/year (fraction of IT capex per year)"));
        QVERIFY(cost::sameAssumptionUnit("fraction", "fraction of IT power"));
        QVERIFY(cost::sameAssumptionUnit("ratio", "fraction"));
        QVERIFY(cost::sameAssumptionUnit("USD/kWh", "USD/kWh"));
        QVERIFY(!cost::sameAssumptionUnit("USD/MWh", "USD/kWh"));
        QVERIFY(!cost::sameAssumptionUnit("USD", "1/year"));
        QVERIFY(!cost::sameAssumptionUnit("months", "years"));
        QCOMPARE(cost::assumptionUnitProper("1/year (fraction of IT capex per year)"), std::string_view("1/year"));
        QCOMPARE(cost::assumptionUnitProper("fraction of capex at end of life"), std::string_view("1"));
        QCOMPARE(cost::assumptionUnitProper(" USD/kWh "), std::string_view("USD/kWh"));
        for (const auto& [key, a] : m_defaults) QVERIFY2(cost::sameAssumptionUnit(a.unit, a.unit), key.c_str());
        design.clear();
        design["maintenance_fraction"] = m_defaults.at("it_maintenance_fraction");
        design["maintenance_fraction"].unit = "1/year";
        QVERIFY(errorOf([&] { cost::checkDesignAssumptions(design, m_defaults, "d.json"); }).empty());
        design["maintenance_fraction"].unit = "1/month";
        e = errorOf([&] { cost::checkDesignAssumptions(design, m_defaults, "d.json"); });
        QVERIFY2(e.find("field 'unit'") != std::string::npos && e.find("'1/month'") != std::string::npos, e.c_str());
        model::AssumptionSet set = m_defaults;
        QVERIFY(!errorOf([&] { cost::overrideAssumption(set, "assumptions.electricity_usd_per_kwh", -0.1); }).empty());
        QVERIFY(!errorOf([&] { cost::overrideAssumption(set, "assumptions.utilization", 0); }).empty());
        QVERIFY(errorOf([&] { cost::overrideAssumption(set, "assumptions.utilization", 0.5); }).empty());
        // Missing min in data/assumptions.json: the loader refuses.
        writeAll(tmp("a.json"), R"({"assumptions":{"x":{"base":1,"low":0,"high":2,"max":3,"unit":"","source":"s"}}})");
        e = errorOf([&] { model::loadAssumptionsFile(tmp("a.json")); });
        QVERIFY2(e.find("field 'min'") != std::string::npos, e.c_str());
    }
};

QTEST_APPLESS_MAIN(TestHardening)
#include "test_hardening.moc"
