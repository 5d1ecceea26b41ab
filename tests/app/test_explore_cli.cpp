// `clustertwin-cli explore` (issue 16): the shipped example specs run, the output formats, bad inputs and
// their exit codes, `--mpi` without a launcher, and `mpirun -n 2` giving the single-process result byte for
// byte (exhaustive and sampled).
#include "explore_command.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <unistd.h>

namespace {

const QString kCli = QStringLiteral(CTWIN_CLI_PATH);
const QString kData = QStringLiteral(CTWIN_SOURCE_DATA_DIR);

struct Run {
    int code;
    QString out, err;
};

Run run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(300000)) return {-1, {}, QStringLiteral("timeout")};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

Run cli(const QStringList& args) {
    return run(kCli, args);
}

/// A spec on the Llama 3 reference: restart scope x WACC x tariff, sampled or exhaustive.
QString writeSpec(const QTemporaryDir& dir, const QString& name, const QString& search,
                  const QString& constraints) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QStringLiteral(R"({"format": "clustertwin-explore-spec", "spec_version": 1, "name": "cli test",
      "base": "%1/reference/llama3-16k-h100.json",
      "choices": [
        {"name": "restart", "field": "training_jobs.*.restart_scope", "values": ["whole_job", "parallel_group", "hot_spare"]},
        {"name": "wacc", "set": "assumptions.wacc", "range": {"min": 0.05, "max": 0.12, "step": 0.01}},
        {"name": "tariff", "set": "assumptions.electricity_usd_per_kwh", "range": {"min": 0.03, "max": 0.10, "count": 8}}
      ],
      "constraints": [%3],
      "objectives": [{"figure": "training.cost_per_million_tokens_usd", "goal": "minimize"},
                     {"figure": "reliability.goodput", "goal": "maximize"},
                     {"figure": "finance.tco_annual_usd", "goal": "minimize"}]%2})")
                .arg(kData, search, constraints)
                .toUtf8());
    return path;
}

} // namespace

class TestExploreCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void shippedExamples() {
        // Cheapest $/M output tokens under a 100 MW feed: a Vera Rubin rack with dry coolers (see
        // /tmp/notes/explore.md); every feasible point keeps to the cap.
        const auto r = cli({"explore", kData + "/explore/inference-100mw.json", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["space_points"].toInt(), 96);
        QCOMPARE(j["evaluated"].toInt(), 96);
        QCOMPARE(j["feasible"].toInt() + j["rejected_total"].toInt(), 96);
        // 4 MW levels x (2 HGX racks x 3 liquid plants + 4 liquid racks x air) do not lay out.
        int layout = 0;
        const QJsonObject rejected = j["rejected"].toObject();
        for (auto it = rejected.begin(); it != rejected.end(); ++it)
            if (it.key().startsWith("layout: ")) layout += it.value().toInt();
        QCOMPARE(layout, 4 * (2 * 3 + 4));
        double cheapest = 1e300;
        QString cheapestRack;
        for (const auto& p : j["pareto"].toArray()) {
            const auto f = p.toObject()["figures"].toObject();
            QVERIFY(f["power.facility_peak_mw"].toDouble() <= 100.0);
            const double c = f["inference.cost_per_request_usd"].toDouble(); // the spec's all-in objective
            if (c < cheapest)
                cheapest = c, cheapestRack = p.toObject()["choices"].toObject()["rack"].toString();
        }
        QVERIFY(cheapestRack.startsWith("vr-nvl"));
        const auto t = cli({"explore", kData + "/explore/training-100k.json", "--csv", "--threads", "2"});
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QVERIFY(t.out.startsWith(
            "index,rack,cooling,spare fraction,restart scope,training.cost_per_million_tokens_usd"));
        QVERIFY(t.out.count('\n') >= 2);
    }

    // The power-envelope example (issue 35): 1,000 points over ratio x battery x on-site generation on the
    // agentic reference; every Pareto point keeps to the carbon cap, and the front's best tokens/s per
    // provisioned MW is at the largest ratio (capping costs less than the provisioned MW it saves).
    void powerEnvelopeExample() {
        const auto r = cli({"explore", kData + "/explore/power-envelope.json", "--json", "--threads", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["space_points"].toInt(), 1000);
        QCOMPARE(j["feasible"].toInt() + j["rejected_total"].toInt(), 1000);
        QVERIFY(j["feasible"].toInt() > 0);
        double best = 0, bestRatio = 0;
        for (const auto& p : j["pareto"].toArray()) {
            const auto f = p.toObject()["figures"].toObject();
            QVERIFY(f["environment.carbon_tco2e_per_year_location_based"].toDouble() <= 90000.0);
            const double perMw = f["inference.output_tokens_per_s_per_mw"].toDouble();
            if (perMw > best)
                best = perMw,
                bestRatio = p.toObject()["choices"].toObject()["oversubscription ratio"].toDouble();
        }
        QCOMPARE(bestRatio, 1.9);
    }

    void designOfAPoint() {
        const QString spec = writeSpec(m_dir, "design.json", "", "");
        const QString out = m_dir.filePath("point.json");
        const auto r = cli({"explore", spec, "--design", "100", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Point 100 = restart 100 / 64 = 1 (parallel_group), wacc level (100 % 64) / 8 = 4 (0.09), tariff 4.
        QVERIFY(r.out.contains("\"restart\":\"parallel_group\""));
        QCOMPARE(cli({"validate", out}).code, 0);
        // The assumption choices are in the design's assumptions block: it evaluates as the point did.
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto a = QJsonDocument::fromJson(f.readAll()).object()["assumptions"].toObject();
        QCOMPARE(a["wacc"].toObject()["base"].toDouble(), 0.09);
        QCOMPARE(a["electricity_usd_per_kwh"].toObject()["base"].toDouble(), 0.07);
        const auto e = cli({"evaluate", out, "--json"});
        QCOMPARE(e.code, 0);
        // The restart scope (parallel_group at this point) does not move the cost per GPU-hour: the written
        // design must match the reference evaluated with the two assumption overrides.
        const auto fin = [](const QString& json) {
            return QJsonDocument::fromJson(json.toUtf8())
                .object()["finance"]
                .toObject()["cost_per_gpu_hour_usd"]
                .toDouble();
        };
        const auto y = cli({"evaluate", kData + "/reference/llama3-16k-h100.json", "--json", "--set",
                            "assumptions.wacc=0.09", "--set", "assumptions.electricity_usd_per_kwh=0.07"});
        QCOMPARE(fin(e.out), fin(y.out));
    }

    /// The Pareto points as a comparison report (XLSX and JSON; PDF goes through the same writer).
    void paretoReport() {
        const QString spec = kData + "/explore/inference-100mw.json";
        const QString json = m_dir.filePath("pareto-report.json"), xlsx = m_dir.filePath("pareto.xlsx");
        const auto r = cli({"explore", spec, "--report", json});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("comparison of"));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto doc = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!doc.isEmpty());
        // The names carry the point index and its choices; the cheapest $/M output tokens comes first.
        const QString text = QString::fromUtf8(QJsonDocument(doc).toJson());
        QVERIFY2(text.contains("rack=vr-nvl72 cooling=dry_cooler"), qPrintable(text.left(2000)));
        QCOMPARE(cli({"explore", spec, "--report", xlsx, "--json"}).code, 0);
        QVERIFY(QFileInfo(xlsx).size() > 1000);
        QCOMPARE(cli({"explore", spec, "--report", xlsx, "--mpi"}).code, 2);
    }

    void badInputs() {
        QCOMPARE(cli({"explore"}).code, 2);
        QCOMPARE(cli({"explore", "a.json", "--bogus"}).code, 2);
        QCOMPARE(cli({"explore", "a.json", "--json", "--csv"}).code, 2);
        QCOMPARE(cli({"explore", "a.json", "--threads", "0"}).code, 2);
        QCOMPARE(cli({"explore", "a.json", "--design", "3"}).code, 2);
        // --mpi outside a launcher: says how to run it.
        const auto m = cli({"explore", kData + "/explore/inference-100mw.json", "--mpi"});
        QCOMPARE(m.code, 2);
        QVERIFY2(m.err.contains(explore_has_mpi_message()), qPrintable(m.err));
        // A missing spec, an unknown catalog id, too many points without sampling, nothing feasible: exit 3.
        QCOMPARE(cli({"explore", m_dir.filePath("missing.json")}).code, 3);
        QFile f(m_dir.filePath("badrack.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"format": "clustertwin-explore-spec", "spec_version": 1, "name": "bad",
          "base": "%1/reference/specs/neocloud-100k-gb200.json",
          "choices": [{"name": "rack", "field": "sites.*.buildings.*.halls.*.rack_type", "values": ["gb200-nvl72", "gb400-nvl999"]}],
          "objectives": [{"figure": "capex.total_usd", "goal": "minimize"}]})")
                    .arg(kData)
                    .toUtf8());
        f.close();
        const auto b = cli({"explore", f.fileName()});
        QCOMPARE(b.code, 3);
        QVERIFY2(b.err.contains("'rack'") && b.err.contains("unknown catalog id 'gb400-nvl999'"),
                 qPrintable(b.err));
        const QString big = writeSpec(m_dir, "big.json", R"(, "search": {"max_exhaustive": 100})", "");
        const auto g = cli({"explore", big});
        QCOMPARE(g.code, 3);
        QVERIFY2(g.err.contains("the space has 192 points, above the exhaustive maximum of 100"),
                 qPrintable(g.err));
        const QString none = writeSpec(m_dir, "none.json", "",
                                       R"({"name": "budget", "figure": "capex.total_usd", "max": 1000})");
        const auto n = cli({"explore", none});
        QCOMPARE(n.code, 3);
        QVERIFY2(
            n.err.contains("constraint 'budget' (capex.total_usd <= 1,000) removed the last 192 point(s)"),
            qPrintable(n.err));
    }

    /// mpirun -n 2 gives the single-process output byte for byte: exhaustive and Latin hypercube.
    void mpiEqualsSingleProcess() {
        if (!ctwin::app::exploreHasMpi()) QSKIP("built without MPI (CTWIN_WITH_MPI off or MPI not found)");
        const QString mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
        if (mpirun.isEmpty()) QSKIP("mpirun not on PATH (./dev installs openmpi-bin)");
        QStringList launcher = {"-n", "2", "--oversubscribe"};
        if (::getuid() == 0) launcher << "--allow-run-as-root";
        for (const QString& search :
             {QString(),
              QStringLiteral(R"(, "search": {"method": "latin_hypercube", "points": 60, "seed": 11})")}) {
            const QString spec = writeSpec(m_dir, "mpi.json", search, "");
            const auto single = cli({"explore", spec, "--json", "--threads", "2"});
            QVERIFY2(single.code == 0, qPrintable(single.err));
            const auto multi = run(
                mpirun, launcher + QStringList{kCli, "explore", spec, "--mpi", "--json", "--threads", "1"});
            QVERIFY2(multi.code == 0, qPrintable(multi.err));
            QVERIFY(multi.err.contains("on 2 MPI ranks"));
            QCOMPARE(multi.out, single.out);
            QVERIFY(single.out.contains("\"pareto\""));
        }
    }

private:
    static QString explore_has_mpi_message() {
        return ctwin::app::exploreHasMpi() ? QStringLiteral("mpirun -n 4 clustertwin-cli explore")
                                           : QStringLiteral("built without MPI");
    }
};

QTEST_GUILESS_MAIN(TestExploreCli)
#include "test_explore_cli.moc"
