// Finance reports (SPEC.md §6) of a reference design in every format, checked by content: PDF text through
// pdftotext, XLSX parts through unzip, CSV against resultsToJson and `evaluate --json`, JSON sections; bad
// output paths throw and leave nothing behind. PDF needs a QGuiApplication, hence QTEST_MAIN (ctest runs it
// with QT_QPA_PLATFORM=offscreen).
#include "catalog.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "report/finance_report.h"
#include "report/pdf_charts.h"
#include "results_json.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

using namespace ctwin;

namespace {
const std::string kData = CTWIN_SOURCE_DATA_DIR;
const std::string kDesign = kData + "/reference/llama3-16k-h100.json";

struct Run {
    int code;
    QByteArray out;
    QString err;
};
Run run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(120000)) return {-1, {}, QStringLiteral("timeout")};
    return {p.exitCode(), p.readAllStandardOutput(), QString::fromUtf8(p.readAllStandardError())};
}

/// Figures of resultsToJson flattened back to dotted keys ("power.pue"), without the rules.
void flatten(const nlohmann::ordered_json& j, const std::string& prefix, std::map<std::string, double>& out) {
    for (const auto& [k, v] : j.items()) {
        if (prefix.empty() && k == "rules") continue;
        const std::string key = prefix.empty() ? k : prefix + "." + k;
        if (v.is_object())
            flatten(v, key, out);
        else if (v.is_number())
            out[key] = v.get<double>();
    }
}

/// Lines of a CSV file split on commas (the files checked here have no quoted fields).
std::vector<QStringList> readCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    std::vector<QStringList> rows;
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts))
        rows.push_back(line.split(','));
    return rows;
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}
} // namespace

class TestReport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    model::Project m_project;
    cost::Results m_results;
    cost::Tornado m_tornado;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    app::ReportInput input() const {
        app::ReportInput in;
        in.project = &m_project;
        in.results = &m_results;
        in.assumptions = model::mergeAssumptions(m_defaults, m_project.assumptions);
        in.tornado = m_tornado;
        in.uncertainty = std::map<std::string, cost::Percentiles>{
            {"finance.cost_per_gpu_hour_usd", {2.0, 2.31, 2.7, 2.33}}};
        in.date = "2025-01-31";
        return in;
    }

    /// A tornado of the cost per GPU-hour built with evaluate() itself (scenarios.cpp is not needed here):
    /// each assumption at its low and high value, the others at base.
    cost::Tornado tornadoByHand(const std::string& output, const std::vector<std::string>& keys) const {
        cost::Tornado t;
        t.output = output;
        t.base = m_results.figure(output)->value;
        for (const auto& key : keys) {
            cost::TornadoBar bar;
            bar.assumption = key;
            auto at = [&](double value) {
                model::AssumptionSet set = m_defaults;
                set[key].base = value;
                return cost::evaluate(m_project, m_catalog, set).figure(output)->value;
            };
            bar.inputLow = m_defaults.at(key).low;
            bar.inputHigh = m_defaults.at(key).high;
            bar.outputAtLow = at(bar.inputLow);
            bar.outputAtHigh = at(bar.inputHigh);
            bar.swing = std::abs(bar.outputAtHigh - bar.outputAtLow);
            t.bars.push_back(bar);
        }
        std::sort(t.bars.begin(), t.bars.end(),
                  [](const auto& a, const auto& b) { return a.swing > b.swing; });
        return t;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        // CTWIN_REPORT_KEEP=1 keeps the written reports for a look (e.g. pdftoppm on report.pdf).
        if (qEnvironmentVariableIsSet("CTWIN_REPORT_KEEP")) {
            m_dir.setAutoRemove(false);
            qInfo("reports kept in %s", qPrintable(m_dir.path()));
        }
        m_catalog = model::loadCatalogDirectory(kData + "/catalog");
        m_defaults = model::loadAssumptionsFile(kData + "/assumptions.json");
        m_project = model::loadProjectJson(kDesign, &m_catalog);
        m_results = cost::evaluate(m_project, m_catalog, m_defaults);
        QCOMPARE(m_results.bom.gpus, 16384.0);
        m_tornado = tornadoByHand("finance.cost_per_gpu_hour_usd",
                                  {"utilization", "electricity_usd_per_kwh", "it_useful_life_years", "wacc",
                                   "it_maintenance_fraction", "building_shell_usd_per_w"});
    }

    void formatsFiguresForPeople() {
        QCOMPARE(app::formatMoney(1117647615.0), std::string("$1,117.6M"));
        QCOMPARE(app::formatMoney(-248855349.0), std::string("-$248.9M"));
        QCOMPARE(app::formatMoney(68216.3), std::string("$68,216"));
        QCOMPARE(app::formatMoney(2.3141), std::string("$2.31"));
        QCOMPARE(app::formatMoney(2.0), std::string("$2.00"));
        QCOMPARE(app::formatMoney(0.02345), std::string("$0.0234"));
        QCOMPARE(app::formatPercent(-0.0003), std::string("-0.03%"));
        QCOMPARE(app::formatMillions(20480000.0), std::string("20.5"));
        QCOMPARE(app::formatFigureValue("finance.cost_per_gpu_hour_usd", 2.3141, "USD/GPU-h"),
                 std::string("$2.31/GPU-h"));
        QCOMPARE(app::formatFigureValue("reliability.goodput", 0.9, ""), std::string("90.0%"));
        QCOMPARE(app::formatFigureValue("inventory.gpus", 16384, "GPU"), std::string("16,384 GPU"));
        QCOMPARE(app::reportFormatForPath("out/r.PDF"), app::ReportFormat::Pdf);
        QCOMPARE(app::reportFormatForPath("out/csv"), app::ReportFormat::Csv);
        QVERIFY(!app::reportFormatFromName("docx"));
    }

    void pdfHasTheHeadlineFiguresAndPageNumbers() {
        const QString pdf = path("report.pdf");
        app::writeReport(input(), app::ReportFormat::Pdf, pdf.toStdString());
        const auto r = run("pdftotext", {"-layout", pdf, "-"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString text = QString::fromUtf8(r.out);
        const int pages = static_cast<int>(text.count('\f'));
        QVERIFY2(pages >= 8, qPrintable(QString::number(pages)));
        // Expected strings built independently of the report code: cost::formatHuman and the rounding rules.
        const auto& f = m_results.finance;
        const QStringList expected = {
            "Llama 3 405B",
            "Finance report",
            "2025-01-31",
            "Executive summary",
            "16,384 GPU",
            QString::fromStdString(cost::formatHuman(m_results.figure("power.it_mw")->value, "MW")),
            QString::fromStdString(cost::formatHuman(m_results.figure("power.facility_mw")->value, "MW")),
            QString::fromStdString(cost::formatHuman(m_results.power.pue, "")),
            // Capex $952.4M: a million and more prints in millions with one decimal (250.0 stays 250.0).
            "$" + QString::number(std::round(m_results.capex.total.value() / 1e5) / 10, 'f', 1) + "M",
            "$" + QString::fromStdString(cost::formatHuman(f.costPerGpuHour, "")) + "/GPU-h",
            "$" + QString::number(std::round(f.tcoAnnual.value() / 1e5) / 10, 'f', 1) + "M/yr",
            "$" +
                QString::fromStdString(
                    cost::formatHuman(m_results.training.front().costPerMillionTokens, "")) +
                "/M tok",
            QString::asprintf("%.1f%%", m_results.goodput * 100), // goodput as a percentage
            "Capex by category",
            "Accelerators and compute",
            // Issue 13: the analyst capex view beside the ten categories, and both TCO conventions labelled
            // with the headline marked.
            "Capex, analyst view",
            "Other IT (CPUs and host trays)",
            "Economic",
            "(headline)",
            "Accounting",
            QString::fromStdString(app::formatMoney(f.accounting.costPerGpuHour)), // accounting $/GPU-h
            "Depreciation",
            "Straight-line schedule",
            "Declining-balance schedule",
            "Yearly cash flow",
            "TCO and unit costs",
            "Goodput and reliability",
            "Design rules",
            "missing_spares",
            "Assumptions",
            "electricity_usd_per_kwh",
            "Sensitivity",
            "Uncertainty",
            "Appendix: figures and how they are computed",
            "Page 1 of " + QString::number(pages),
            QStringLiteral("Page %1 of %1").arg(pages),
        };
        for (const QString& s : expected)
            QVERIFY2(text.contains(s), qPrintable("PDF lacks: " + s));
        // The energy basis names the site and the tariff used with its provenance (issue 12): the Llama 3
        // design prices energy at its assumptions block's 0.065 $/kWh.
        QVERIFY2(text.contains("site-iowa:") && text.contains("$0.0650 per kWh") &&
                     text.contains("(design assumption)"),
                 "PDF lacks the energy basis by site");
        // Every page renders.
        const QString prefix = path("png/page");
        QDir().mkpath(path("png"));
        const auto png = run("pdftoppm", {"-r", "50", "-png", pdf, prefix});
        QVERIFY2(png.code == 0, qPrintable(png.err));
        QCOMPARE(static_cast<int>(QDir(path("png")).entryList({"page*.png"}, QDir::Files).size()), pages);
    }

    // Issue 12: the PDF priced energy at the tariff assumption although each site of two-site-wan sets its
    // own (0.08 and 0.07 $/kWh); the report now states each site's tariff and where it came from, and an
    // overridden assumption is marked.
    void pdfEnergyBasisUsesSiteTariffs() {
        const QString pdf = path("two-site.pdf");
        const auto r = run(CTWIN_CLI_PATH,
                           {"report", QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/two-site-wan.json"),
                            "--pdf", pdf, "--samples", "0", "--set", "assumptions.wacc=0.1"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto t = run("pdftotext", {"-layout", pdf, "-"});
        // Whitespace collapsed: the basis column wraps a long line ("$0.0800 per" / "kWh").
        const QString text = QString::fromUtf8(t.out).simplified();
        for (const char* s : {"site-wi:", "$0.0800 per kWh", "site-atl:", "$0.0700 per kWh", "(site field)",
                              "(overridden)", "(not used)", "sites.site-wi.electricity_usd_per_kwh"})
            QVERIFY2(text.contains(s), s);
    }

    void xlsxHasSheetsValuesAndLiveFormulas() {
        const QString xlsx = path("report.xlsx");
        app::writeReport(input(), app::ReportFormat::Xlsx, xlsx.toStdString());
        auto part = [&](const char* name) {
            const auto r = run("unzip", {"-p", xlsx, name});
            return r.code == 0 ? QString::fromUtf8(r.out) : QString();
        };
        const QString workbook = part("xl/workbook.xml");
        const QRegularExpression sheetName(QStringLiteral("<sheet name=\"([^\"]+)\""));
        QStringList names;
        for (auto it = sheetName.globalMatch(workbook); it.hasNext();)
            names << it.next().captured(1);
        QCOMPARE(names, QStringList({"Summary", "Capex", "Depreciation", "Cash flow", "Assumptions", "Energy",
                                     "Rules", "Timeline", "Sensitivity", "Uncertainty"}));
        // Summary: the GPU count as a number; capex total as a formula linked to the Capex sheet, cached
        // value.
        const QString summary = part("xl/worksheets/sheet1.xml");
        QVERIFY(summary.contains("<v>16384</v>"));
        QVERIFY(summary.contains("<f>Capex!$C$12</f><v>952393422.5"));
        // Capex: total = SUM of the categories, shares divide by it.
        const QString capex = part("xl/worksheets/sheet2.xml");
        QVERIFY(capex.contains("<f>SUM(C2:C11)</f><v>952393422.5"));
        QVERIFY(capex.contains("<f>IF($C$12&lt;&gt;0,C2/$C$12,0)</f>"));
        QVERIFY(capex.contains(
            "<v>545398784</v>")); // compute capex of the H100 cluster (test_finance_conventions)
        // Depreciation: life from the Assumptions sheet, straight line = cost / life.
        const QString dep = part("xl/worksheets/sheet3.xml");
        QVERIFY(dep.contains("<f>Assumptions!$B$"));
        QVERIFY(dep.contains("<f>IF(B3&gt;0,(B2-B2*B6)/B3,(B2-B2*B6))</f>"));
        // Cash flow: net = revenue - opex - tax (- capex in year 0), NPV via Excel's NPV plus year 0.
        const QString cash = part("xl/worksheets/sheet4.xml");
        QVERIFY(cash.contains("<f>C14-D14-G14-H14+I14-B14</f>"));
        QVERIFY(cash.contains("<f>NPV($B$10,J14:J18)+J13</f>"));
        // Energy (issue 12): the site's MWh x the tariff used; the Llama 3 site has no tariff of its own, so
        // its tariff cell is the electricity assumption's cell (the design's 0.065), and the cash flow's
        // energy driver is the Energy sheet's total.
        const QString energy = part("xl/worksheets/sheet6.xml");
        QVERIFY2(energy.contains("<f>Assumptions!$B$"), qPrintable(energy.left(2000)));
        QVERIFY(energy.contains("<f>B2*1000*C2</f>"));
        QVERIFY(energy.contains("<f>SUM(E2:E2)</f>"));
        QVERIFY(cash.contains("<f>Energy!$E$3</f>"));
        const QString strings = part("xl/sharedStrings.xml");
        for (const char* s :
             {"Accelerators and compute", "electricity_usd_per_kwh", "missing_spares", "utilization",
              "Set by", "design assumption (sites.site-iowa.electricity_usd_per_kwh)"})
            QVERIFY2(strings.contains(s), s);
    }

    void csvSummaryEqualsEvaluateJson() {
        const QString dir = path("csv");
        app::writeReport(input(), app::ReportFormat::Csv, dir.toStdString());
        QCOMPARE(entries(dir),
                 QStringList({"assumptions.csv", "capex.csv", "capex_analyst.csv", "cashflow.csv",
                              "depreciation.csv", "rules.csv", "sensitivity.csv", "summary.csv",
                              "tco_conventions.csv", "timeline.csv", "uncertainty.csv"}));
        const auto rows = readCsv(dir + "/summary.csv");
        QVERIFY(!rows.empty());
        QCOMPARE(rows.front(), QStringList({"key", "value", "unit"}));
        std::map<std::string, double> csv;
        for (size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].size(), 3);
            csv[rows[i][0].toStdString()] = std::strtod(rows[i][1].toStdString().c_str(), nullptr);
        }
        // The same keys and exactly the same values as resultsToJson ...
        std::map<std::string, double> json;
        flatten(cost::resultsToJson(m_results), "", json);
        QCOMPARE(csv.size(), json.size());
        for (const auto& [k, v] : json) {
            QVERIFY2(csv.count(k), k.c_str());
            QVERIFY2(csv[k] == v, k.c_str());
        }
        // ... and as the CLI's `evaluate --json`.
        const auto cli = run(CTWIN_CLI_PATH, {"evaluate", QString::fromStdString(kDesign), "--json"});
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        std::map<std::string, double> fromCli;
        flatten(nlohmann::ordered_json::parse(cli.out.toStdString()), "", fromCli);
        QCOMPARE(fromCli.size(), csv.size());
        for (const auto& [k, v] : fromCli)
            QVERIFY2(std::abs(csv[k] - v) <= 1e-9 * std::max(1.0, std::abs(v)), k.c_str());
    }

    void csvTablesHaveTheirColumns() {
        const QString dir = path("csv");
        const auto capex = readCsv(dir + "/capex.csv");
        QCOMPARE(capex.front(), QStringList({"category", "label", "cost_usd", "share", "per_gpu_usd"}));
        QCOMPARE(capex.size(), cost::kCapexCategories.size() + 1);
        QCOMPARE(capex[1][0], QString("compute"));
        QCOMPARE(capex[1][2].toDouble(), 545398784.0); // 1,024 racks priced from their parts
        const auto cash = readCsv(dir + "/cashflow.csv");
        QCOMPARE(cash.size(), m_results.finance.cashFlows.size() + 1);
        QCOMPARE(cash[1][5].toDouble(), m_results.finance.cashFlows[0].value());
        const auto dep = readCsv(dir + "/depreciation.csv");
        QCOMPARE(dep.front(), QStringList({"asset_class", "capex_usd", "life_years", "method", "year",
                                           "depreciation_usd"}));
        // Three asset classes, two methods, five years.
        QCOMPARE(dep.size(), size_t(3 * 2 * 5 + 1));
        const auto assumptions = readCsv(dir + "/assumptions.csv");
        QCOMPARE(assumptions.front().mid(0, 4), QStringList({"key", "base", "low", "high"}));
        QCOMPARE(assumptions.size(), model::mergeAssumptions(m_defaults, m_project.assumptions).size() + 1);
        const auto rules = readCsv(dir + "/rules.csv");
        QCOMPARE(rules.size(), m_results.rules.size() + 1);
        // Both conventions, four classes (it, network, facility, land) and a total each; the economic rows
        // are the headline by default; the totals are the engine's capex charges.
        const auto tco = readCsv(dir + "/tco_conventions.csv");
        QCOMPARE(tco.size(), size_t(2 * 5 + 1));
        QCOMPARE(tco[1][0], QString("economic"));
        QCOMPARE(tco[1][1], QString("true"));
        QCOMPARE(tco[5][1], QString("true"));
        QCOMPARE(tco[6][0], QString("accounting"));
        QCOMPARE(tco[6][1], QString("false"));
        QCOMPARE(tco[5][2], QString("total"));
        QCOMPARE(tco[5][6].toDouble(), m_results.finance.economic.capexCharge.value());
        QCOMPARE(tco[10][6].toDouble(), m_results.finance.accounting.capexCharge.value());
        // The analyst view sums to the capex total.
        const auto analyst = readCsv(dir + "/capex_analyst.csv");
        QCOMPARE(analyst.size(), cost::kAnalystCapexCategories.size() + 1);
        double sum = 0;
        for (size_t i = 1; i < analyst.size(); ++i)
            sum += analyst[i][2].toDouble();
        QVERIFY(std::abs(sum - m_results.capex.total.value()) <= 1e-6 * m_results.capex.total.value());
    }

    void jsonIsEvaluateJsonPlusSections() {
        const QString file = path("report.json");
        app::writeReport(input(), app::ReportFormat::Json, file.toStdString());
        std::ifstream in(file.toStdString());
        const auto j = nlohmann::ordered_json::parse(in);
        std::map<std::string, double> mine, engine;
        flatten(j, "", mine);
        flatten(cost::resultsToJson(m_results), "", engine);
        for (const auto& [k, v] : engine)
            QVERIFY2(mine.count(k) && mine[k] == v, k.c_str());
        const auto& report = j.at("report");
        QCOMPARE(report.at("design").at("id").get<std::string>(), m_project.info.id);
        QCOMPARE(report.at("capex").size(), cost::kCapexCategories.size());
        QCOMPARE(report.at("cash_flow").size(), m_results.finance.cashFlows.size());
        QCOMPARE(report.at("depreciation").size(), size_t(3));
        QVERIFY(report.at("assumptions").contains("wacc"));
        QCOMPARE(report.at("tco_headline").get<std::string>(), std::string("economic"));
        QVERIFY(report.at("tco_conventions").at("economic").at("headline").get<bool>());
        QVERIFY(!report.at("tco_conventions").at("accounting").at("headline").get<bool>());
        QCOMPARE(report.at("tco_conventions").at("accounting").at("tco_annual_usd").get<double>(),
                 m_results.finance.accounting.tcoAnnual.value());
        QCOMPARE(report.at("capex_analyst_view").size(), cost::kAnalystCapexCategories.size());
        QCOMPARE(report.at("sensitivity").at("bars").size(), m_tornado.bars.size());
    }

    void comparisonReports() {
        const auto other = model::loadProjectJson(kData + "/reference/vera-rubin-504.json", &m_catalog);
        const auto otherResults = cost::evaluate(other, m_catalog, m_defaults);
        // A comparison built by hand (compareDesigns lives in scenarios.cpp).
        cost::Comparison cmp;
        cmp.names = {"H100 16K", "Vera Rubin"};
        for (const char* key : {"inventory.gpus", "power.facility_mw", "capex.total_usd",
                                "finance.cost_per_gpu_hour_usd", "reliability.goodput"}) {
            const auto* a = m_results.figure(key);
            const auto* b = otherResults.figure(key);
            cost::ComparisonRow row{key,
                                    a->label,
                                    a->unit,
                                    {a->value, b->value},
                                    {0, b->value - a->value},
                                    {0, a->value != 0 ? 100 * (b->value - a->value) / std::abs(a->value) : 0},
                                    true,
                                    -1,
                                    -1};
            row.lowerIsBetter =
                std::string(key) != "reliability.goodput" && std::string(key) != "inventory.gpus";
            if (a->value != b->value)
                row.best = (a->value < b->value) == row.lowerIsBetter ? 0 : 1, row.worst = 1 - row.best;
            cmp.rows.push_back(row);
        }
        cmp.explanations = {
            "capex.total_usd differs by more than 10%: different accelerators and rack count"};
        app::ComparisonInput in{{&m_results, &otherResults}, cmp, "2025-01-31"};

        const QString pdf = path("compare.pdf"), xlsx = path("compare.xlsx"), json = path("compare.json");
        app::writeComparisonReport(in, app::ReportFormat::Pdf, pdf.toStdString());
        app::writeComparisonReport(in, app::ReportFormat::Xlsx, xlsx.toStdString());
        app::writeComparisonReport(in, app::ReportFormat::Json, json.toStdString());
        app::writeComparisonReport(in, app::ReportFormat::Csv, path("compare-csv").toStdString());

        const QString text = QString::fromUtf8(run("pdftotext", {"-layout", pdf, "-"}).out);
        for (const QString& s :
             {QString("Design comparison"), QString("H100 16K"), QString("Vera Rubin"),
              QString("Capex by category"), QString("Designs"), QString("$952.4M"), QString("Page 1 of ")})
            QVERIFY2(text.contains(s), qPrintable("comparison PDF lacks: " + s));
        const QString workbook = QString::fromUtf8(run("unzip", {"-p", xlsx, "xl/workbook.xml"}).out);
        QVERIFY(workbook.contains("<sheet name=\"Comparison\""));
        QVERIFY(workbook.contains("<sheet name=\"Capex\""));
        const QString sheet = QString::fromUtf8(run("unzip", {"-p", xlsx, "xl/worksheets/sheet1.xml"}).out);
        QVERIFY(sheet.contains("<f>E2-$D2</f>"));
        const QString capex = QString::fromUtf8(run("unzip", {"-p", xlsx, "xl/worksheets/sheet2.xml"}).out);
        QVERIFY(capex.contains("<f>SUM(B2:B11)</f>"));
        const auto rows = readCsv(path("compare-csv/comparison.csv"));
        QCOMPARE(rows.size(), size_t(5 * 2 + 1));
        std::ifstream js(json.toStdString());
        QCOMPARE(nlohmann::json::parse(js).at("rows").size(), size_t(5));
    }

    void chartsAsPngAndSvg() {
        // The report's charts as files: PNG at 300 dpi the size they have on the page (174 mm wide:
        // round(174 / 25.4 x 300) = 2055 px; capex 72 mm high: 850 px), SVG with real text.
        const QString dir = path("charts");
        app::writeReport(input(), app::ReportFormat::Charts, dir.toStdString());
        QCOMPARE(entries(dir), QStringList({"capex_by_category.png", "capex_by_category.svg", "cash_flow.png",
                                            "cash_flow.svg", "sensitivity.png", "sensitivity.svg",
                                            "timeline_cash.png", "timeline_cash.svg"}));
        const QImage capex(dir + "/capex_by_category.png");
        QCOMPARE(capex.size(), QSize(2055, 850));
        QCOMPARE(qRound(capex.dotsPerMeterX() * 0.0254), 300);
        // The compute bar is the first category's colour, and it is the widest: more of its pixels than of
        // any other category colour.
        std::map<QRgb, int> counts;
        for (int y = 0; y < capex.height(); y += 2)
            for (int x = 0; x < capex.width(); x += 2)
                ++counts[capex.pixel(x, y)];
        const QRgb compute = app::chartColor(0).rgb(), power = app::chartColor(5).rgb();
        QVERIFY(counts[compute] > 1000);
        QVERIFY(counts[compute] > counts[power] && counts[power] > 0);

        // SVG: valid for Qt's renderer, draws something, and carries the labels and values as text.
        QFile svgFile(dir + "/capex_by_category.svg");
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svg = svgFile.readAll();
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QImage drawn(renderer.defaultSize(), QImage::Format_RGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        int inked = 0;
        for (int y = 0; y < drawn.height(); ++y)
            for (int x = 0; x < drawn.width(); ++x)
                inked += drawn.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
        QVERIFY(inked > drawn.width() * drawn.height() / 50);
        const double computeUsd = m_results.capex.byCategory.at("compute").value();
        for (const QByteArray& s :
             {QByteArray("Accelerators and compute"), QByteArray(app::formatMoney(computeUsd).c_str())})
            QVERIFY2(svg.contains(s), s.constData());
        QFile tornado(dir + "/sensitivity.svg");
        QVERIFY(tornado.open(QIODevice::ReadOnly));
        QVERIFY(tornado.readAll().contains("utilization"));

        // Comparison: capex by category stacked per design.
        const auto other = model::loadProjectJson(kData + "/reference/vera-rubin-504.json", &m_catalog);
        const auto otherResults = cost::evaluate(other, m_catalog, m_defaults);
        cost::Comparison cmp;
        cmp.names = {"H100 16K", "Vera Rubin"};
        app::ComparisonInput both{{&m_results, &otherResults}, cmp, "2025-01-31"};
        app::writeComparisonReport(both, app::ReportFormat::Charts, path("compare-charts").toStdString());
        QCOMPARE(entries(path("compare-charts")),
                 QStringList({"capex_by_category.png", "capex_by_category.svg"}));

        // Bad targets: a file where the folder should be, and an unwritable place; nothing is left.
        QFile plain(path("charts-file"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        for (const QString& bad : {path("charts-file"), QStringLiteral("/proc/ctwin-charts")}) {
            try {
                app::writeReport(input(), app::ReportFormat::Charts, bad.toStdString());
                QFAIL(qPrintable("no error for " + bad));
            } catch (const model::InputError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(bad), e.what());
            }
        }
        QVERIFY(QFileInfo(path("charts-file")).isFile());
        QVERIFY(!QFileInfo::exists("/proc/ctwin-charts"));
    }

    void degenerateDesignsStillReport() {
        // An empty design (no racks: zero capex, no GPU-hours) and a zero-year horizon: every format is
        // written, charts and tables cope with zeros and empty schedules.
        model::Project empty;
        empty.info.id = "empty";
        empty.info.name = "Empty design";
        model::AssumptionSet shortHorizon = m_defaults;
        shortHorizon["horizon_years"].base = 0;
        for (const auto& [project, defaults] :
             {std::pair{&empty, &m_defaults}, std::pair{&m_project, &shortHorizon}}) {
            const auto results = cost::evaluate(*project, m_catalog, *defaults);
            app::ReportInput in;
            in.project = project;
            in.results = &results;
            in.assumptions = model::mergeAssumptions(*defaults, project->assumptions);
            const QString stem =
                path(QString::fromStdString(project->info.id) + (defaults == &shortHorizon ? "-h0" : ""));
            for (auto format : {app::ReportFormat::Pdf, app::ReportFormat::Xlsx, app::ReportFormat::Csv,
                                app::ReportFormat::Json})
                app::writeReport(in, format, (stem + "." + app::reportFormatName(format)).toStdString());
            const QString text = QString::fromUtf8(run("pdftotext", {stem + ".pdf", "-"}).out);
            QVERIFY(text.contains("Page 1 of "));
            QVERIFY(text.contains(QString::fromStdString(project->info.name)));
            QVERIFY(!run("unzip", {"-p", stem + ".xlsx", "xl/worksheets/sheet4.xml"}).out.isEmpty());
        }
    }

    void badPathsThrowAndLeaveNothing() {
        const auto in = input();
        auto throwsNaming = [&](app::ReportFormat format, const QString& target) {
            try {
                app::writeReport(in, format, target.toStdString());
            } catch (const model::InputError& e) {
                return QString::fromUtf8(e.what()).contains(target);
            }
            return false;
        };
        QTemporaryDir scratch;
        const QString base = scratch.path();
        // Directories that cannot be written, even by root: /proc.
        for (auto format : {app::ReportFormat::Pdf, app::ReportFormat::Xlsx, app::ReportFormat::Json})
            QVERIFY(throwsNaming(format, "/proc/ctwin-report.out"));
        QVERIFY(throwsNaming(app::ReportFormat::Csv, "/proc/ctwin-report-csv"));
        // A directory that does not exist; a file where a directory should be; a directory as the target.
        QVERIFY(throwsNaming(app::ReportFormat::Pdf, base + "/missing/report.pdf"));
        QFile plain(base + "/plain");
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        QVERIFY(throwsNaming(app::ReportFormat::Xlsx, base + "/plain/report.xlsx"));
        QVERIFY(throwsNaming(app::ReportFormat::Csv, base + "/plain/csv"));
        QVERIFY(QDir().mkpath(base + "/taken.pdf"));
        QVERIFY(throwsNaming(app::ReportFormat::Pdf, base + "/taken.pdf"));
        QCOMPARE(entries(base), QStringList({"plain", "taken.pdf"}));
        QVERIFY(entries(base + "/taken.pdf").isEmpty());
        // CSV is all or nothing: one file that cannot be replaced (a directory named rules.csv) fails the
        // report, and none of the files written before it stay.
        QVERIFY(QDir().mkpath(base + "/csv/rules.csv"));
        QVERIFY(throwsNaming(app::ReportFormat::Csv, base + "/csv"));
        QCOMPARE(entries(base + "/csv"), QStringList({"rules.csv"}));
        // Successful writes leave no temporaries.
        for (const QString& e : entries(m_dir.path()))
            QVERIFY2(!e.endsWith(".tmp"), qPrintable(e));
    }
};

QTEST_MAIN(TestReport)
#include "test_report.moc"
