// clustertwin-cli as a user runs it: exit codes, messages, JSON keys, conversions, every reference design.
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {
const QString kCli = QStringLiteral(CTWIN_CLI_PATH);
const QString kRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");

struct Run {
    int code;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(kCli, args);
    if (!p.waitForFinished(120000)) return {-1, {}, QStringLiteral("timeout")};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void helpAndUsage() {
        QCOMPARE(cli({"--help"}).code, 0);
        for (const char* c : {"validate", "convert", "evaluate"}) {
            const auto r = cli({c, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY(r.out.contains("usage: clustertwin-cli " + QString(c)));
        }
        QCOMPARE(cli({}).code, 2);
        QCOMPARE(cli({"frobnicate"}).code, 2);
        QCOMPARE(cli({"evaluate"}).code, 2);
        QCOMPARE(cli({"evaluate", "--bogus", "x.json"}).code, 2);
    }

    void validatesEveryReferenceDesign() {
        const QDir dir(kRef);
        QStringList files;
        for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
            if (f != "index.json") files << dir.filePath(f);
        QCOMPARE(files.size(), 6);
        const auto r = cli(QStringList{"validate"} + files);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out.count(": ok"), 6);
    }

    void evaluateJsonHasTheContractKeys() {
        const auto r = cli({"evaluate", kRef + "/llama3-16k-h100.json", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        for (const char* k : {"gpus", "racks", "sites", "buildings", "switches", "transceivers", "cdus"})
            QVERIFY2(j["inventory"].contains(k), k);
        QCOMPARE(j["inventory"]["gpus"].get<double>(), 16384.0);
        for (const char* k : {"it_mw", "facility_mw", "pue"}) QVERIFY2(j["power"].contains(k), k);
        for (const char* k : {"total_usd", "per_gpu_usd", "per_mw_usd", "by_category_usd", "share"})
            QVERIFY2(j["capex"].contains(k), k);
        QCOMPARE(j["capex"]["by_category_usd"].size(), size_t(10));
        for (const char* k : {"annualized_capex_usd", "depreciation_annual_usd", "opex_annual_usd", "energy_annual_usd",
                              "tco_annual_usd", "cost_per_gpu_hour_usd"})
            QVERIFY2(j["finance"].contains(k), k);
        for (const char* k : {"time_days", "run_cost_usd", "cost_per_million_tokens_usd"}) QVERIFY2(j["training"].contains(k), k);
        QVERIFY(j["rules"].is_array());
    }

    void setOverridesAnAssumption() {
        const QString f = kRef + "/vera-rubin-504.json";
        const auto base = nlohmann::json::parse(cli({"evaluate", f, "--json"}).out.toStdString());
        const auto r = cli({"evaluate", f, "--json", "--set", "assumptions.it_useful_life_years=3"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto changed = nlohmann::json::parse(r.out.toStdString());
        // A shorter IT life raises annualized capex and the cost per GPU-hour.
        QVERIFY(changed["finance"]["annualized_capex_usd"].get<double>() > base["finance"]["annualized_capex_usd"].get<double>());
        const auto bad = cli({"evaluate", f, "--set", "assumptions.no_such_thing=1"});
        QCOMPARE(bad.code, 3);
        QVERIFY(bad.err.contains("assumptions.no_such_thing"));
        QCOMPARE(cli({"evaluate", f, "--set", "assumptions.wacc=abc"}).code, 3);
        QCOMPARE(cli({"evaluate", f, "--set", "wacc"}).code, 2);
    }

    void humanOutputIsATable() {
        const auto r = cli({"evaluate", kRef + "/neocloud-100k-gb200.json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("GPUs"));
        QVERIFY(r.out.contains(" MW"));
        QVERIFY(r.out.contains("USD/GPU-h"));
    }

    void convertRoundTrip() {
        const QString ctwin = m_dir.filePath("d.ctwin"), json = m_dir.filePath("d.json");
        QCOMPARE(cli({"convert", kRef + "/two-site-wan.json", ctwin}).code, 0);
        QCOMPARE(cli({"convert", ctwin, json}).code, 0);
        QFile a(kRef + "/two-site-wan.json"), b(json);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
    }

    void badInputExitsThreeAndKeepsFiles() {
        const QString bad = m_dir.filePath("bad.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"clustertwin-design\", \"schema_version\": 1, \"racks\": [{\"id\": 5}]}");
        f.close();
        auto r = cli({"validate", bad});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("bad.json") && r.err.contains("'id'"));
        r = cli({"validate", m_dir.filePath("nothing.ctwin")});
        QCOMPARE(r.code, 3);
        // An unwritable target: exit 3, nothing written.
        r = cli({"convert", kRef + "/vera-rubin-504.json", "/nonexistent-dir/out.ctwin"});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("/nonexistent-dir/out.ctwin"));
        // A failed conversion leaves an existing output untouched.
        const QString keep = m_dir.filePath("keep.json");
        QFile k(keep);
        QVERIFY(k.open(QIODevice::WriteOnly));
        k.write("precious");
        k.close();
        QCOMPARE(cli({"convert", bad, keep}).code, 3);
        QVERIFY(k.open(QIODevice::ReadOnly));
        QCOMPARE(k.readAll(), QByteArray("precious"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
