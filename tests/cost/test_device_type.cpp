// NetBox device types in the devicetype-library YAML format (issue 33 item 3, cost/netbox_device_type.h):
// the two hand-written fixtures of tests/cost/devicetypes (README there), the overlay they give the shipped
// catalog, the switch written back and read again, and the bad files a stranger may hand over.
#include "../test_compare.h"
#include "../test_support.h"
#include "catalog_overlay.h"
#include "netbox_device_type.h"

#include <QtTest>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

using namespace ctwin;
namespace nb = ctwin::cost::netbox;

namespace {

const std::string kFixtures =
    (std::filesystem::path(CTWIN_TEST_DATA_DIR).parent_path() / "cost" / "devicetypes").string();

std::string errorOf(const std::string& yaml) {
    return test_support::inputErrorOf([&] { nb::parseDeviceType(yaml, "bad.yaml"); });
}

const char* const kMinimal = "manufacturer: Example\nmodel: M\nslug: m\nu_height: 1\nis_full_depth: false\n";

} // namespace

class TestDeviceType : public QObject {
    Q_OBJECT

private slots:
    /// example-51t-switch: 2 U, 32.5 kg, two ports of maximum 2,200 W and allocated 900 W: the allocated
    /// sum 1,800 W is the draw (the maximum sum 4,400 W is kept); three interfaces; front-to-rear.
    void readsTheSwitchFixture() {
        const auto d = nb::readDeviceTypeFile(kFixtures + "/example-51t-switch.yaml");
        QCOMPARE(d.slug, std::string("example-51t-switch"));
        QCOMPARE(d.manufacturer, std::string("Example"));
        QCOMPARE(d.partNumber, std::string("EX-51T-64"));
        QCOMPARE(d.uHeight, 2.0);
        QVERIFY(d.fullDepth && d.powered);
        QCOMPARE(d.airflow, std::string("front-to-rear"));
        QVERIFY(d.weightKg);
        CTWIN_COMPARE_REL(*d.weightKg, 32.5, 1e-12);
        QCOMPARE(d.powerPorts, 2);
        QCOMPARE(d.maximumDrawW, 4400.0);
        QCOMPARE(d.allocatedDrawW, 1800.0);
        QCOMPARE(d.drawW(), 1800.0);
        QCOMPARE(std::string(d.drawBasis()), std::string("allocated"));
        QCOMPARE(d.interfaces, size_t{3});
    }

    /// example-hgx-server: 287 lb = 287 x 0.45359237 = 130.181 kg (the international pound, exact); six ports
    /// of maximum 3,300 W and no allocated draw: the draw is the maximum sum 19,800 W.
    void readsTheServerFixtureInPounds() {
        const auto d = nb::readDeviceTypeFile(kFixtures + "/example-hgx-server.yaml");
        CTWIN_COMPARE_REL(*d.weightKg, 130.18101019, 1e-9);
        QCOMPARE(d.uHeight, 8.0);
        QCOMPARE(d.powerPorts, 6);
        QCOMPARE(d.drawW(), 19800.0);
        QCOMPARE(std::string(d.drawBasis()), std::string("maximum"));
    }

    /// Mapped through a mapping file: the switch gives sw-51t rack_units 2 and power_w 1,800 (within its
    /// 1,200-2,500 range, kept); the server x 2 per rack gives hgx-h100-2srv power_load_w 39,600, above the
    /// item's high 21,000, so the high widens to it. Applied to the catalog, the values are the catalog's.
    /// The log names both and warns that a maximum summed over redundant supplies overstates the load.
    void mapsOntoTheCatalog() {
        const std::vector<nb::DeviceType> types = {
            nb::readDeviceTypeFile(kFixtures + "/example-51t-switch.yaml"),
            nb::readDeviceTypeFile(kFixtures + "/example-hgx-server.yaml")};
        const auto mapping = nlohmann::json::parse(
            R"({"device_types": {"example-51t-switch": {"item": "sw-51t"},
                                 "example-hgx-server": {"item": "hgx-h100-2srv", "per_item": 2}}})");
        const auto r = nb::deviceTypeOverlay(types, test_support::catalog(), &mapping, "map.json");
        QCOMPARE(r.overlay["items"].size(), size_t{2});
        const auto catalog = cost::applyCatalogOverlay(test_support::catalog(),
                                                       nlohmann::json::parse(r.overlay.dump()), "o.json");
        const auto* sw = catalog.find("sw-51t");
        QCOMPARE(sw->value("rack_units"), 2.0);
        QCOMPARE(sw->value("power_w"), 1800.0);
        QCOMPARE(sw->find("power_w")->low, 1200.0);
        QCOMPARE(sw->find("power_w")->high, 2500.0);
        const auto* rack = catalog.find("hgx-h100-2srv");
        QCOMPARE(rack->value("power_load_w"), 39600.0);
        QCOMPARE(rack->find("power_load_w")->high, 39600.0);
        QVERIFY(rack->find("power_load_w")->source.find("x 2 per rack") != std::string::npos);
        QCOMPARE(r.log.size(), size_t{2});
        QVERIFY(r.log[1].find("overstates") != std::string::npos);
    }

    /// Without a mapping a device type maps by slug; one that names no catalog item is logged and left out.
    /// per_item defaults to the rack's servers (hgx-h100-2srv: 2).
    void mapsBySlugAndLeavesOutTheUnknown() {
        auto d = nb::parseDeviceType(std::string(kMinimal) +
                                         "power-ports:\n  - {name: P, type: other, maximum_draw: 1000}\n",
                                     "m.yaml");
        auto known = d;
        known.slug = "hgx-h100-2srv";
        const auto r = nb::deviceTypeOverlay({d, known}, test_support::catalog(), nullptr, "");
        QCOMPARE(r.overlay["items"].size(), size_t{1});
        QCOMPARE(r.overlay["items"][0]["values"]["power_load_w"]["base"].get<double>(), 2000.0);
        QVERIFY(r.log[0].find("left out m") != std::string::npos);
    }

    /// NetBox 4.7's cooling_method: "air" on a server of a liquid-cooled rack sets its liquid share to 0;
    /// "liquid" on an air-cooled rack is logged, not given a share the file does not state.
    void coolingMethod() {
        const std::string ports = "power-ports:\n  - {name: P, type: other, maximum_draw: 1000}\n";
        auto air = nb::parseDeviceType(std::string(kMinimal) + ports + "cooling_method: air\n", "a.yaml");
        QCOMPARE(air.coolingMethod, std::string("air"));
        air.slug = "gb200-nvl72";
        const auto r = nb::deviceTypeOverlay({air}, test_support::catalog(), nullptr, "");
        QCOMPARE(r.overlay["items"][0]["values"]["liquid_fraction"]["base"].get<double>(), 0.0);
        auto liquid =
            nb::parseDeviceType(std::string(kMinimal) + ports + "cooling_method: liquid\n", "l.yaml");
        liquid.slug = "hgx-h100-2srv";
        const auto q = nb::deviceTypeOverlay({liquid}, test_support::catalog(), nullptr, "");
        QVERIFY(!q.overlay["items"][0]["values"].contains("liquid_fraction"));
        QVERIFY(std::any_of(q.log.begin(), q.log.end(), [](const std::string& l) {
            return l.find("cooling_method liquid but hgx-h100-2srv has liquid_fraction 0") !=
                   std::string::npos;
        }));
    }

    /// sw-51t written as a device type and read back: slug, u_height 2 and one port of maximum_draw 1,800 W
    /// (the catalog's power_w).
    void switchRoundTrip() {
        const auto* sw = test_support::catalog().find("sw-51t");
        const auto yaml = nb::deviceTypeYaml(*sw);
        const auto d = nb::parseDeviceType(yaml, "sw.yaml");
        QCOMPARE(d.slug, std::string("sw-51t"));
        QCOMPARE(d.uHeight, sw->value("rack_units"));
        QCOMPARE(d.maximumDrawW, sw->value("power_w"));
        QCOMPARE(d.powerPorts, 1);
        // A rack type is not a device type.
        QVERIFY(test_support::inputErrorOf([] {
                    nb::deviceTypeYaml(*test_support::catalog().find("gb200-nvl72"));
                }).find("only switches") != std::string::npos);
    }

    /// Files from strangers: each refused with the file, the device type and the field named.
    void refusesBadFiles() {
        const std::string m = kMinimal;
        const struct {
            std::string yaml, fragment;
        } cases[] = {
            {"- a\n- b\n", "not a device type"},
            {"manufacturer: [unclosed\n", "not YAML"},
            {m + "profile: x\n", "'profile': is not a device-type field"},
            {"manufacturer: E\nmodel: M\nslug: Bad Slug\nu_height: 1\nis_full_depth: true\n",
             "'slug': may hold only"},
            {"manufacturer: E\nmodel: M\nslug: m\nis_full_depth: true\n", "'u_height': is missing"},
            {"manufacturer: E\nmodel: M\nslug: m\nu_height: 1.3\nis_full_depth: true\n", "multiple of 0.5"},
            {"manufacturer: E\nmodel: M\nslug: m\nu_height: tall\nis_full_depth: true\n",
             "expected a number"},
            {m + "weight: 10\n", "weight and weight_unit go together"},
            {m + "weight: 10\nweight_unit: stone\n", "not kg, g, lb or oz"},
            {m + "airflow: upward\n", "not a NetBox airflow"},
            {m + "cooling_method: evaporative\n", "not air, liquid, hybrid or immersion"},
            {m + "power-ports:\n  - {name: P}\n", "needs name and type"},
            {m + "power-ports:\n  - {name: P, type: other, maximum_draw: 500, allocated_draw: 900}\n",
             "above the port's maximum_draw"},
            {m + "power-ports:\n  - {name: P, type: other, maximum_draw: 0}\n", "outside 1..2e+06"},
            {m + "interfaces: {a: 1}\n", "'interfaces': expected a list"},
            {m + "is_powered: maybe\n", "expected true or false"},
        };
        for (const auto& c : cases) {
            const auto e = errorOf(c.yaml);
            QVERIFY2(e.find(c.fragment) != std::string::npos, (c.fragment + " <- " + e).c_str());
            QVERIFY2(e.find("bad.yaml") != std::string::npos, e.c_str());
        }
        // The device type is named (slug and model) once they are read; before, it is "?".
        QVERIFY(errorOf(m + "airflow: upward\n").find("NetBox device type 'm' (M)") != std::string::npos);
        QVERIFY(errorOf("- a\n").find("NetBox device type '?'") != std::string::npos);
    }

    /// Mappings that cannot hold: to a non-switch, non-compute item; per_item out of range; the same slug
    /// twice. Each an InputError naming the mapping or the file.
    void refusesBadMappings() {
        const auto d = nb::parseDeviceType(
            std::string(kMinimal) + "power-ports:\n  - {name: P, type: other, maximum_draw: 100}\n",
            "m.yaml");
        const auto toCpu = nlohmann::json::parse(R"({"device_types": {"m": {"item": "grace-cpu"}}})");
        QVERIFY(test_support::inputErrorOf([&] {
                    nb::deviceTypeOverlay({d}, test_support::catalog(), &toCpu, "map.json");
                }).find("only switches and compute racks") != std::string::npos);
        const auto badCount =
            nlohmann::json::parse(R"({"device_types": {"m": {"item": "sw-51t", "per_item": 0}}})");
        QVERIFY(test_support::inputErrorOf([&] {
                    nb::deviceTypeOverlay({d}, test_support::catalog(), &badCount, "map.json");
                }).find("per_item") != std::string::npos);
        QVERIFY(test_support::inputErrorOf([&] {
                    nb::deviceTypeOverlay({d, d}, test_support::catalog(), nullptr, "");
                }).find("given by two files") != std::string::npos);
        const auto notAMapping = nlohmann::json::parse(R"([1, 2])");
        QVERIFY(test_support::inputErrorOf([&] {
                    nb::deviceTypeOverlay({d}, test_support::catalog(), &notAMapping, "map.json");
                }).find("map.json") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestDeviceType)
#include "test_device_type.moc"
