// Scale-across line systems (issue 30 item 3): reach per optic with amplified spans, regeneration every
// amplified reach, line terminals at every segment end, and the rules for a link its optic cannot reach.
// Hand calculations use the shipped data/catalog/wan.json (base values):
//   wan-800zr       800G, reach 120 km, amplified 220 km,   $8,000,  28 W
//   wan-800zr-plus  800G, reach 120 km, amplified 800 km,   $15,000, 30 W
//   wan-800g-lh     800G, reach 150 km, amplified 1,600 km, $40,000, 120 W
//   wan-400g-ulh    400G, reach 150 km, amplified 3,500 km, $12,000, 25 W
//   wan-amp         every 80 km, $50,000, 300 W;  wan-line-terminal $70,000, 400 W
// and the formulas of cost/bill_of_materials.cpp sizeLineSystem:
//   segments = ceil(L / reach), regen sites = segments - 1, spans per segment = ceil(segment / 80 km) when
//   the segment is longer than reach_m (else one), amplifiers = fiber pairs x segments x (spans - 1),
//   terminals = 2 x fiber pairs x segments, optics = 2 x wavelengths x segments.
// Every link here carries 6.4 Tb/s: 8 wavelengths of 800G (16 of 400G) on one fiber pair (32 channels).
#include "../test_compare.h"
#include "../test_support.h"
#include "bill_of_materials.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"

#include <QtTest>
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace ctwin;
using ojson = nlohmann::ordered_json;

namespace {

/// two-site-wan with its link at `routeM` metres of surveyed route, 6.4 Tb/s and `optic`. The Atlanta
/// site sits on the Wisconsin one, so the great circle is 0 and no route is shorter than it.
ojson linkDesign(double routeM, const std::string& optic) {
    std::ifstream in(test_support::kData + "/reference/two-site-wan.json");
    ojson j = ojson::parse(in);
    for (auto& s : j["sites"])
        if (s["id"] == "site-atl") s["lat_deg"] = 42.7, s["lon_deg"] = -87.93;
    auto& l = j["links"][0];
    if (routeM > 0)
        l["route_length_m"] = routeM;
    else
        l["route_length_m"] = nullptr;
    l["capacity_bit_per_s"] = 6.4e12;
    l["optic"] = optic;
    l["latency_budget_s"] = nullptr;
    return j;
}

cost::Results evaluateJson(const ojson& j, const model::Catalog& catalog = test_support::catalog()) {
    return cost::evaluate(model::projectFromJson(j, "test.json", &catalog), catalog,
                          test_support::defaults());
}

std::vector<cost::DesignRule> rulesNamed(const cost::Results& r, const std::string& rule) {
    std::vector<cost::DesignRule> out;
    std::copy_if(r.rules.begin(), r.rules.end(), std::back_inserter(out),
                 [&](const auto& x) { return x.rule == rule; });
    return out;
}

bool mentions(const cost::DesignRule& r, const std::string& text) {
    return r.message.find(text) != std::string::npos;
}

/// The shipped catalog with `edit` applied to a copy of its items.
model::Catalog editedCatalog(const std::function<void(std::vector<model::CatalogItem>&)>& edit) {
    auto items = test_support::catalog().items();
    edit(items);
    return model::Catalog(std::move(items));
}

const std::vector<std::string> kLinkRules = {"link_regenerated", "link_reach",      "link_reach_exceeded",
                                             "link_no_optic",    "link_optic_kind", "link_optic_incomplete"};

size_t linkRuleCount(const cost::Results& r) {
    size_t n = 0;
    for (const auto& id : kLinkRules)
        n += rulesNamed(r, id).size();
    return n;
}

} // namespace

class TestWan : public QObject {
    Q_OBJECT
private slots:
    /// 500 km on wan-800zr-plus (amplified reach 800 km): one segment, no regeneration.
    /// spans = ceil(500 / 80) = 7 -> 6 inline amplifiers; 2 terminals; 2 x 8 = 16 optics.
    /// capex = 16 x 15,000 + 6 x 50,000 + 2 x 70,000 = 240,000 + 300,000 + 140,000 = $680,000
    /// power = 16 x 30 + 6 x 300 + 2 x 400 = 480 + 1,800 + 800 = 3,080 W. Tolerance 1e-9 relative.
    void amplifiersWithinAmplifiedReach() {
        const auto r = evaluateJson(linkDesign(500e3, "wan-800zr-plus"));
        const auto& w = r.bom.links.at(0);
        QCOMPARE(w.wavelengths, 8.0);
        QCOMPARE(w.fiberPairs, 1.0);
        QCOMPARE(w.amplifiers, 6.0);
        QCOMPARE(w.regenSites, 0.0);
        QCOMPARE(w.regenerators, 0.0);
        QCOMPARE(w.lineTerminals, 2.0);
        QCOMPARE(w.optics, 16.0);
        CTWIN_COMPARE_REL(w.segmentLength.value(), 500e3, 1e-12);
        CTWIN_COMPARE_REL(w.capex.value(), 680000.0, 1e-9);
        CTWIN_COMPARE_REL(w.power.value(), 3080.0, 1e-9);
        QCOMPARE(linkRuleCount(r), size_t(0));
        // The link's capex and power reach the scale-across capex category and the WAN power.
        CTWIN_COMPARE_REL(r.capex.byCategory.at("scale_across").value(), 680000.0, 1e-9);
        CTWIN_COMPARE_REL(r.power.wan.value(), 3080.0, 1e-9);
    }

    /// The 3,074 km 800G ZR link: 3,074 / 220 = 13.97 -> 14 segments of 219.571 km, 13 regen sites,
    /// 8 x 13 = 104 back-to-back pairs. Per segment ceil(219.571 / 80) = 3 spans -> 2 amplifiers: 28.
    /// Terminals 2 x 14 = 28; optics 2 x 8 x 14 = 224.
    /// capex = 224 x 8,000 + 28 x 50,000 + 28 x 70,000 = 1,792,000 + 1,400,000 + 1,960,000 = $5,152,000
    /// power = 224 x 28 + 28 x 300 + 28 x 400 = 6,272 + 8,400 + 11,200 = 25,872 W. Tolerance 1e-9.
    /// It is not accepted silently: a Warning names the link, the field and the 13 regeneration sites.
    void overReachLinkIsRegenerated() {
        const auto r = evaluateJson(linkDesign(3074e3, "wan-800zr"));
        const auto& w = r.bom.links.at(0);
        QCOMPARE(w.regenSites, 13.0);
        QCOMPARE(w.regenerators, 104.0);
        QCOMPARE(w.amplifiers, 28.0);
        QCOMPARE(w.lineTerminals, 28.0);
        QCOMPARE(w.optics, 224.0);
        CTWIN_COMPARE_REL(w.segmentLength.value(), 3074e3 / 14, 1e-12);
        CTWIN_COMPARE_REL(w.capex.value(), 5152000.0, 1e-9);
        CTWIN_COMPARE_REL(w.power.value(), 25872.0, 1e-9);
        const auto found = rulesNamed(r, "link_regenerated");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].severity, cost::Severity::Warning);
        QCOMPARE(found[0].entity, std::string("wan-wi-atl"));
        QVERIFY2(mentions(found[0], "13 regeneration sites"), found[0].message.c_str());
        QVERIFY2(mentions(found[0], "amplified_reach_m"), found[0].message.c_str());
        QVERIFY2(mentions(found[0], "3074 km"), found[0].message.c_str());
        QVERIFY2(mentions(found[0], "104 back-to-back"), found[0].message.c_str());
    }

    /// Longer-reach optics for the same 3,074 km:
    /// wan-800g-lh: 2 segments of 1,537 km (1 regen site, 8 pairs), ceil(1,537 / 80) = 20 spans -> 19 x 2 =
    ///   38 amplifiers, 4 terminals, 32 optics: 32 x 40,000 + 38 x 50,000 + 4 x 70,000 = $3,460,000.
    /// wan-400g-ulh: 16 wavelengths, one segment, ceil(3,074 / 80) = 39 spans -> 38 amplifiers, 2 terminals,
    ///   32 optics: 32 x 12,000 + 38 x 50,000 + 2 x 70,000 = $2,424,000, no rule.
    void longerReachOpticsNeedFewerRegenerators() {
        const auto lh = evaluateJson(linkDesign(3074e3, "wan-800g-lh"));
        QCOMPARE(lh.bom.links[0].regenSites, 1.0);
        QCOMPARE(lh.bom.links[0].regenerators, 8.0);
        QCOMPARE(lh.bom.links[0].amplifiers, 38.0);
        QCOMPARE(lh.bom.links[0].lineTerminals, 4.0);
        CTWIN_COMPARE_REL(lh.bom.links[0].capex.value(), 3460000.0, 1e-9);
        QVERIFY(mentions(rulesNamed(lh, "link_regenerated").at(0), "1 regeneration site "));

        const auto ulh = evaluateJson(linkDesign(3074e3, "wan-400g-ulh"));
        QCOMPARE(ulh.bom.links[0].wavelengths, 16.0);
        QCOMPARE(ulh.bom.links[0].regenSites, 0.0);
        QCOMPARE(ulh.bom.links[0].amplifiers, 38.0);
        CTWIN_COMPARE_REL(ulh.bom.links[0].capex.value(), 2424000.0, 1e-9);
        QCOMPARE(linkRuleCount(ulh), size_t(0));
    }

    /// Boundaries on wan-800zr (reach 120 km, amplified 220 km, amplifiers every 80 km):
    /// 120 km is one unamplified span (0 amplifiers); 160 km is exactly two spans (1 amplifier, not the
    /// floor(160 / 80) = 2 of the old count); 220 km is exactly the amplified reach (one segment, no regen,
    /// ceil(220 / 80) = 3 spans -> 2 amplifiers); 220 km x (1 + 5e-5) is within the 1e-4 slack; 221 km
    /// regenerates once (2 segments of 110.5 km, each one span: 0 amplifiers, 4 terminals).
    void reachBoundaries() {
        auto at = [](double m) { return evaluateJson(linkDesign(m, "wan-800zr")); };
        const auto oneSpan = at(120e3);
        QCOMPARE(oneSpan.bom.links[0].amplifiers, 0.0);
        QCOMPARE(oneSpan.bom.links[0].regenSites, 0.0);
        QCOMPARE(at(160e3).bom.links[0].amplifiers, 1.0);
        const auto edge = at(220e3);
        QCOMPARE(edge.bom.links[0].regenSites, 0.0);
        QCOMPARE(edge.bom.links[0].amplifiers, 2.0);
        QCOMPARE(linkRuleCount(edge), size_t(0));
        QCOMPARE(at(220e3 * (1 + 5e-5)).bom.links[0].regenSites, 0.0);
        const auto over = at(221e3);
        QCOMPARE(over.bom.links[0].regenSites, 1.0);
        QCOMPARE(over.bom.links[0].amplifiers, 0.0);
        QCOMPARE(over.bom.links[0].lineTerminals, 4.0);
        QCOMPARE(rulesNamed(over, "link_regenerated").size(), size_t(1));
    }

    /// A zero-length link (both ends at one place, no surveyed route) is the existing Error; its line system
    /// is one segment with 2 terminals and 16 optics, no amplifiers or regenerators, and every figure finite.
    void zeroLengthLink() {
        const auto r = evaluateJson(linkDesign(0, "wan-800zr"));
        QCOMPARE(rulesNamed(r, "link_zero_length").size(), size_t(1));
        const auto& w = r.bom.links.at(0);
        QCOMPARE(w.routeLength.value(), 0.0);
        QCOMPARE(w.amplifiers, 0.0);
        QCOMPARE(w.regenSites, 0.0);
        QCOMPARE(w.lineTerminals, 2.0);
        QCOMPARE(w.optics, 16.0);
        CTWIN_COMPARE_REL(w.capex.value(), 16 * 8000.0 + 2 * 70000.0, 1e-9);
        QCOMPARE(linkRuleCount(r), size_t(0));
    }

    /// Without an amplifier in the catalog the reach is reach_m, and the existing `link_reach` Warning now
    /// also counts the regeneration: 500 km / 120 km -> 5 segments of 100 km, 4 regen sites, no amplifiers.
    void unamplifiedCatalogKeepsLinkReach() {
        const auto noAmp = editedCatalog([](auto& items) {
            std::erase_if(items, [](const model::CatalogItem& i) { return i.kind == "amplifier"; });
        });
        const auto r = evaluateJson(linkDesign(500e3, "wan-800zr"), noAmp);
        const auto& w = r.bom.links.at(0);
        QCOMPARE(w.regenSites, 4.0);
        QCOMPARE(w.amplifiers, 0.0);
        QCOMPARE(w.lineTerminals, 10.0);
        const auto found = rulesNamed(r, "link_reach");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].severity, cost::Severity::Warning);
        QVERIFY2(mentions(found[0], "4 regeneration sites"), found[0].message.c_str());
        QVERIFY2(mentions(found[0], "no wan amplifier"), found[0].message.c_str());
        QVERIFY(rulesNamed(r, "link_regenerated").empty());
    }

    /// The shipped two-site reference (1,392.17 km on wan-400g-ulh, issue 30): within its 3,500 km amplified
    /// reach, one segment, no regeneration and no rule; 160 Tb/s = 400 wavelengths of 400G on
    /// ceil(400 / 32) = 13 fiber pairs; ceil(1,392.17 / 80) = 18 spans -> 17 inline amplifier sites x 13 =
    /// 221 amplifiers; 2 x 13 = 26 line terminals; 800 optics. Capex 800 x $12,000 + 221 x $50,000 + 26 x
    /// $70,000 = $22,470,000 (exact). The same link on wan-800zr (220 km amplified reach): 1,392.17 / 220 =
    /// 6.33 -> 7 segments, 6 regeneration sites and a Warning; 200 wavelengths on 7 fiber pairs.
    void shippedTwoSiteAndTheShortReachOptic() {
        const auto r = cost::evaluate(test_support::reference("two-site-wan"), test_support::catalog(),
                                      test_support::defaults());
        const auto& w = r.bom.links.at(0);
        QCOMPARE(w.wavelengths, 400.0);
        QCOMPARE(w.fiberPairs, 13.0);
        QCOMPARE(w.regenSites, 0.0);
        QCOMPARE(w.amplifiers, 221.0);
        QCOMPARE(w.lineTerminals, 26.0);
        QCOMPARE(w.capex.value(), 22470000.0);
        QVERIFY(rulesNamed(r, "link_regenerated").empty() && rulesNamed(r, "link_reach").empty());
        std::ifstream in(test_support::kData + "/reference/two-site-wan.json");
        ojson j = ojson::parse(in);
        j["links"][0]["optic"] = "wan-800zr";
        const auto zr = evaluateJson(j);
        const auto& z = zr.bom.links.at(0);
        QCOMPARE(z.wavelengths, 200.0);
        QCOMPARE(z.fiberPairs, 7.0);
        QCOMPARE(z.regenSites, 6.0);
        QCOMPARE(z.lineTerminals, 2.0 * 7 * 7);
        QVERIFY(mentions(rulesNamed(zr, "link_regenerated").at(0), "6 regeneration sites"));
    }

    /// Bad inputs: clear messages naming the link and the field, Errors where the link cannot be sized.
    void badInputs() {
        // No optic: nothing counted, a Warning naming the link and its optic field.
        const auto none = evaluateJson(linkDesign(500e3, ""));
        QCOMPARE(none.bom.links[0].capex.value(), 0.0);
        const auto noOptic = rulesNamed(none, "link_no_optic");
        QCOMPARE(noOptic.size(), size_t(1));
        QCOMPARE(noOptic[0].entity, std::string("wan-wi-atl"));
        QVERIFY2(mentions(noOptic[0], "optic"), noOptic[0].message.c_str());

        // An amplifier where the optic goes: an Error, not an exception from a missing bit_per_s.
        const auto amp = evaluateJson(linkDesign(500e3, "wan-amp"));
        const auto kind = rulesNamed(amp, "link_optic_kind");
        QCOMPARE(kind.size(), size_t(1));
        QCOMPARE(kind[0].severity, cost::Severity::Error);
        QVERIFY2(mentions(kind[0], "wan amplifier, not an optic"), kind[0].message.c_str());

        // An optic without reach (a hand-built catalog; a catalog file without it is refused on load, below)
        // and one with reach 0: link_reach_exceeded, an Error naming link, optic and field.
        for (bool erase : {true, false}) {
            const auto cat = editedCatalog([&](auto& items) {
                for (auto& i : items)
                    if (i.id == "wan-800zr") {
                        if (erase)
                            i.values.erase("reach_m");
                        else
                            i.values["reach_m"].base = i.values["reach_m"].low = 0;
                    }
            });
            const auto r = evaluateJson(linkDesign(500e3, "wan-800zr"), cat);
            const auto found = rulesNamed(r, "link_reach_exceeded");
            QCOMPARE(found.size(), size_t(1));
            QCOMPARE(found[0].severity, cost::Severity::Error);
            QCOMPARE(found[0].entity, std::string("wan-wi-atl"));
            QVERIFY2(mentions(found[0], "wan-800zr") && mentions(found[0], "reach_m"),
                     found[0].message.c_str());
            QVERIFY(r.hasErrors());
            QCOMPARE(r.bom.links[0].capex.value(), 0.0);
        }

        // The catalog refuses an optic without reach_m, and an amplified reach shorter than one span.
        auto optic = [](const ojson& values) {
            return nlohmann::json{
                {"category", "wan"},
                {"items",
                 {{{"id", "x"}, {"name", "X"}, {"kind", "optic"}, {"values", nlohmann::json(values)}}}}};
        };
        auto v = [](double x) { return ojson{{"base", x}, {"low", x}, {"high", x}, {"source", "test"}}; };
        const ojson good = {
            {"bit_per_s", v(8e11)}, {"reach_m", v(120e3)}, {"power_w", v(28)}, {"price_usd", v(8e3)}};
        QVERIFY(test_support::inputErrorOf([&] {
                    model::catalogItemsFromJson(optic(good), "wan.json");
                }).empty());
        ojson noReach = good;
        noReach.erase("reach_m");
        const auto missing =
            test_support::inputErrorOf([&] { model::catalogItemsFromJson(optic(noReach), "wan.json"); });
        QVERIFY2(missing.find("reach_m") != std::string::npos, missing.c_str());
        ojson shortAmplified = good;
        shortAmplified["amplified_reach_m"] = v(100e3);
        const auto shorter = test_support::inputErrorOf(
            [&] { model::catalogItemsFromJson(optic(shortAmplified), "wan.json"); });
        QVERIFY2(shorter.find("amplified_reach_m") != std::string::npos, shorter.c_str());
    }
};

QTEST_APPLESS_MAIN(TestWan)
#include "test_wan.moc"
