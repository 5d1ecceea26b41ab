// The catalog: every shipped file loads and checks; the SQLite catalog database round-trips; bad catalog
// input names file, item and field; failure rates reproduce the Llama 3 calibration.
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "catalog_database.h"
#include "input_error.h"

using namespace ctwin::model;

namespace {
const std::string kCatalogDir = std::string(CTWIN_SOURCE_DATA_DIR) + "/catalog";

void expectError(const nlohmann::json& j, std::initializer_list<const char*> fragments) {
    try {
        catalogItemsFromJson(j, "racks.json");
        QFAIL("expected an InputError");
    } catch (const InputError& e) {
        const std::string msg = e.what();
        for (const char* f : fragments) QVERIFY2(msg.find(f) != std::string::npos, msg.c_str());
    }
}
} // namespace

class TestCatalog : public QObject {
    Q_OBJECT
private slots:
    void shippedCatalogLoads() {
        const Catalog c = loadCatalogDirectory(kCatalogDir);
        QVERIFY(c.items().size() > 40);
        for (const char* id : {"hgx-h100-2srv", "hgx-b200-4srv", "gb200-nvl72", "gb300-nvl72", "vr-nvl72", "vr-nvl144",
                               "sw-51t", "sw-102t", "cdu-1mw", "cdu-2mw", "plant-chiller", "plant-dry-cooler",
                               "plant-tower", "xfmr-mv", "ups-static", "switchgear-lv", "busway-row", "genset",
                               "nvme-local", "pfs-flash", "object-hdd", "wan-800zr", "wan-amp"})
            QVERIFY2(c.find(id) != nullptr, id);
        // REFERENCES.md: H100 SXM dense BF16 989 TFLOPS, 80 GB HBM3, 3.35 TB/s.
        const auto& h100 = c.at("h100-sxm");
        QCOMPARE(h100.value("bf16_flops"), 989e12);
        QCOMPARE(h100.value("hbm_bytes"), 80e9);
        QCOMPARE(h100.value("hbm_bandwidth_bytes_per_s"), 3.35e12);
        // Every value has a source and a consistent range (checked on load; spot-check one).
        const auto* v = c.at("gb200-nvl72").find("power_load_w");
        QVERIFY(v && !v->source.empty() && v->low <= v->base && v->base <= v->high);
    }

    void failureRatesMatchLlama3Calibration() {
        // Llama 3 405B (Meta 2024): 148 faulty-GPU interruptions in 54 days on 16,384 GPUs:
        // 148 / (16,384 x 54 x 24 h) = 148 / 21,233,664 = 6.970e-6 per GPU-hour.
        const Catalog c = loadCatalogDirectory(kCatalogDir);
        QVERIFY(std::abs(c.at("fail-gpu").value("rate_per_hour") - 148.0 / 21233664.0) < 1e-9);
        // HBM3: 72 / 21,233,664 = 3.391e-6 per GPU-hour.
        QVERIFY(std::abs(c.at("fail-hbm").value("rate_per_hour") - 72.0 / 21233664.0) < 1e-9);
        // Summed over the paper's unexpected classes on its own cluster the rates give back 419 in 54 days
        // (within the rounding of the per-class rates and the switch count assumed, 5%).
        const double gpuHours = 16384.0 * 54 * 24, serverHours = 2048.0 * 54 * 24;
        double expected = 0;
        for (const auto& item : c.byCategory("failures")) {
            if (item->kind != "component") continue; // failure-rate presets (node_rate) are not classes
            const std::string unit = item->attribute("unit");
            const double rate = item->value("rate_per_hour");
            if (item->id == "planned-maintenance" || item->id == "fail-cdu" || item->id == "fail-power-feed" ||
                item->id == "fail-wan-span" || item->id == "fail-optic")
                continue;
            if (unit == "gpu" || unit == "job_per_gpu") expected += rate * gpuHours;
            else if (unit == "server") expected += rate * serverHours;
            else if (unit == "nic") expected += rate * gpuHours; // one back-end NIC per GPU
            else if (unit == "switch") expected += 35.0;         // calibrated on the paper's switch count
        }
        QVERIFY2(std::abs(expected - 419.0) / 419.0 < 0.05, std::to_string(expected).c_str());
    }

    void modelPresets() {
        // The presets the training and inference forms read (catalog.byCategory("models")), with the
        // published architectures: Llama 3 Herd of Models Table 3, DeepSeek-V3 and Kimi K2 reports, Qwen3.
        const Catalog c = loadCatalogDirectory(kCatalogDir);
        QCOMPARE(c.byCategory("models").size(), size_t(13)); // + Llama 2 70B and Mixtral 8x7B (issue 28)
        const auto& l405 = c.at("llama3-405b");
        QCOMPARE(l405.value("layers"), 126.0);
        QCOMPARE(l405.value("hidden_size"), 16384.0);
        QCOMPARE(l405.value("kv_heads"), 8.0);
        QCOMPARE(l405.value("head_dim"), 128.0);
        QCOMPARE(l405.value("model_params"), l405.value("active_params")); // dense
        // Llama 3 70B KV cache per token in BF16: 2 x 80 layers x 8 heads x 128 x 2 bytes = 327,680 bytes.
        const auto& l70 = c.at("llama3-70b");
        QCOMPARE(2 * l70.value("layers") * l70.value("kv_heads") * l70.value("head_dim") * 2, 327680.0);
        // DeepSeek-V3 MLA: the formula's 2 x kv_heads x head_dim is the cached 512 latent + 64 RoPE key.
        const auto& ds = c.at("deepseek-v3");
        QCOMPARE(ds.attribute("attention"), std::string("mla"));
        QCOMPARE(2 * ds.value("kv_heads") * ds.value("head_dim"), ds.value("kv_latent_dim") + 64);
        QCOMPARE(ds.value("active_params"), 37e9);
        QCOMPARE(ds.value("experts"), 256.0);
        QCOMPARE(c.at("kimi-k2").value("experts"), 384.0);
        const auto& q = c.at("qwen3-235b-a22b");
        QCOMPARE(q.value("kv_heads"), 4.0);
        QCOMPARE(q.value("layers"), 94.0);
        QCOMPARE(q.value("active_experts"), 8.0);
        QVERIFY(!c.at("qwen3-32b").find("experts"));
        // Survives the catalog database like every other item.
        QTemporaryDir dir;
        const std::string db = dir.filePath("catalog.db").toStdString();
        ctwin::store::writeCatalogDatabase(c, db);
        QCOMPARE(*ctwin::store::loadCatalogDatabase(db).find("kimi-k2"), c.at("kimi-k2"));
    }

    void badModelPresets() {
        const auto v = [](double x) {
            return nlohmann::json{{"base", x}, {"low", x}, {"high", x}, {"source", "test"}};
        };
        const nlohmann::json good = {{"category", "models"},
                                     {"items",
                                      {{{"id", "m"},
                                        {"name", "Model M"},
                                        {"kind", "llm"},
                                        {"attributes", {{"family", "test"}, {"attention", "gqa"}}},
                                        {"values",
                                         {{"model_params", v(8e9)},
                                          {"active_params", v(8e9)},
                                          {"layers", v(32)},
                                          {"hidden_size", v(4096)},
                                          {"kv_heads", v(8)},
                                          {"head_dim", v(128)}}}}}}};
        QCOMPARE(catalogItemsFromJson(good, "models.json").size(), size_t(1));
        const auto expect = [](const nlohmann::json& j, std::initializer_list<const char*> fragments) {
            try {
                catalogItemsFromJson(j, "models.json");
                QFAIL("expected an InputError");
            } catch (const InputError& e) {
                const std::string msg = e.what();
                for (const char* f : fragments)
                    QVERIFY2(msg.find(f) != std::string::npos, msg.c_str());
            }
        };
        auto bad = good;
        bad["items"][0]["values"].erase("head_dim");
        expect(bad, {"models.json", "'m'", "head_dim", "required value is missing"});
        bad = good;
        bad["items"][0]["values"]["kv_head"] = v(8); // misspelt
        expect(bad, {"models.json", "kv_head", "unknown value"});
        bad = good;
        bad["items"][0]["values"]["layers"] = v(31.5);
        expect(bad, {"layers", "whole number"});
        bad = good;
        bad["items"][0]["values"]["active_params"] = v(9e9);
        expect(bad, {"active_params", "exceed"});
        bad = good;
        bad["items"][0]["values"]["experts"] = v(64);
        expect(bad, {"active_experts", "both experts and active_experts"});
        bad["items"][0]["values"]["active_experts"] = v(65);
        expect(bad, {"active_experts", "more active experts than experts"});
        bad = good;
        bad["items"][0]["attributes"]["attention"] = "linear";
        expect(bad, {"attention", "unknown attention 'linear'"});
        bad["items"][0]["attributes"]["attention"] = "mla";
        expect(bad, {"kv_latent_dim", "MLA"});
        bad = good;
        bad["items"][0]["attributes"].erase("family");
        expect(bad, {"family", "required attribute is missing"});
        bad = good;
        bad["items"][0]["values"]["model_params"] = {
            {"base", 8e9}, {"low", 9e9}, {"high", 9e9}, {"source", "x"}};
        expect(bad, {"model_params", "low <= base <= high"});
    }

    void databaseRoundTrip() {
        const Catalog c = loadCatalogDirectory(kCatalogDir);
        QTemporaryDir dir;
        const std::string db = dir.filePath("catalog.db").toStdString();
        ctwin::store::writeCatalogDatabase(c, db);
        const Catalog back = ctwin::store::loadCatalogDatabase(db);
        QCOMPARE(back.items().size(), c.items().size());
        for (size_t i = 0; i < c.items().size(); ++i) QVERIFY(back.items()[i] == c.items()[i]);
    }

    void badCatalogInput() {
        auto item = nlohmann::json::parse(R"({"category": "switches", "items": [{"id": "sw", "name": "Switch",
            "kind": "switch", "values": {"ports": {"base": 64, "low": 64, "high": 64, "source": "x"}}}]})");
        expectError(item, {"racks.json", "catalog item 'sw' (Switch)", "capacity_bit_per_s", "required value is missing"});
        for (const char* f : {"capacity_bit_per_s", "port_bit_per_s", "power_w", "price_usd", "rack_units", "useful_life_years"})
            item["items"][0]["values"][f] = {{"base", 1}, {"low", 1}, {"high", 1}, {"source", "x"}};
        QCOMPARE(catalogItemsFromJson(item, "switches.json").size(), size_t(1)); // complete now
        auto bad = item;
        bad["items"][0]["values"]["ports"]["low"] = 100;
        expectError(bad, {"'sw'", "ports", "low <= base <= high"});
        bad = item;
        bad["items"][0]["values"]["ports"]["base"] = "many";
        expectError(bad, {"ports", "expected a number"});
        bad = item;
        bad["items"][0]["values"]["ports"].erase("source");
        bad["items"][0]["kind"] = "router";
        expectError(bad, {"unknown kind 'router'"});
        QVERIFY_THROWS_EXCEPTION(InputError, loadCatalogDirectory("/nonexistent/catalog"));
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(InputError, ctwin::store::loadCatalogDatabase(dir.filePath("missing.db").toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestCatalog)
#include "test_catalog.moc"
