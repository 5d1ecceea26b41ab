// Autosave and crash recovery: a child process (this program, in child mode) opens a design, edits it,
// autosaves and is killed with SIGKILL; the parent then starts as the next session would and is offered
// the autosave. Restoring brings back exactly the edited document, marked unsaved; declining keeps the file
// and removes the autosave. Issue 27: the child is killed at every step of writing an autosave and of
// recovering one (Autosave::setStepHook), and every time a later start is offered the work; owners are
// boot id + process start time, not a bare pid; side files of earlier versions (with or without .meta)
// are still offered.
#include "data_paths.h"
#include "design_json.h"
#include "gui/autosave.h"
#include "gui/document_editor.h"
#include "gui/message_bar.h"
#include "gui/session_owner.h"
#include "main_window.h"
#include "scripted_prompts.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

using ctwin::app::Autosave;
using ctwin::app::MainWindow;
using ctwin::app::SessionOwner;

namespace {

// Child mode: what to do ("crash", "write-named", "write-untitled", "recover-named", "recover-untitled",
// "recover-startup"), on which design, where to leave the expected documents, at which step to die.
const char* const kChildEnv = "CTWIN_AUTOSAVE_TEST_CHILD";
const char* const kDesignEnv = "CTWIN_AUTOSAVE_TEST_DESIGN";
const char* const kExpectEnv = "CTWIN_AUTOSAVE_TEST_EXPECT";
const char* const kKillEnv = "CTWIN_AUTOSAVE_TEST_KILL";
const QString kReference = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/vera-rubin-504.json");

std::string dump(const MainWindow& w) {
    return ctwin::model::dumpJson(ctwin::model::projectToJson(w.document().project()));
}

bool writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QByteArray readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::unique_ptr<MainWindow> makeWindow(ScriptedPrompts** answers = nullptr) {
    auto w =
        std::make_unique<MainWindow>(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
    auto prompts = std::make_unique<ScriptedPrompts>();
    prompts->restore = true;
    prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
    if (answers) *answers = prompts.get();
    w->setPrompts(std::move(prompts));
    w->setAutosaveInterval(0);
    return w;
}

/// Two edits the tests make: a rack marked spare, then moved.
bool firstEdit(MainWindow& w) {
    const QString rack = QString::fromStdString(w.document().project().racks.front().id);
    return w.editor().setProperty({rack}, "spare", true).isEmpty();
}
bool secondEdit(MainWindow& w) {
    const QString rack = QString::fromStdString(w.document().project().racks.front().id);
    return w.editor().nudge({rack}, QPointF(0.0, -0.6)).isEmpty();
}

/// Dies (SIGKILL, as a crash or kill -9: no cleanup at all) when the autosave reaches `step`.
void killAt(const QString& step) {
    Autosave::setStepHook([step](const char* s) {
        if (step == QLatin1String(s)) ::raise(SIGKILL);
    });
}

/// Child mode. Returns only when it was not killed (the parent then fails on the exit code).
int runChild(const QString& mode) {
    const QString design = qEnvironmentVariable(kDesignEnv);
    const QString expect = qEnvironmentVariable(kExpectEnv);
    const QString step = qEnvironmentVariable(kKillEnv);
    auto w = makeWindow();
    if (mode == QLatin1String("crash")) { // edit, wait for the timer's autosave, hang until killed
        if (!w->openFile(design)) return 10;
        w->setAutosaveInterval(1);
        if (!firstEdit(*w) || !secondEdit(*w)) return 11;
        if (!writeText(expect + "B.json", QByteArray::fromStdString(dump(*w)))) return 13;
        bool saved = false;
        QObject::connect(&w->autosave(), &Autosave::autosaved, [&] { saved = true; });
        QElapsedTimer t;
        t.start();
        while (!saved && t.elapsed() < 20000)
            QTest::qWait(50);
        if (!saved) return 14;
        std::printf("AUTOSAVED\n");
        std::fflush(stdout);
        for (;;)
            QTest::qWait(1000); // killed by the parent
    }
    if (mode.startsWith(QLatin1String("write-"))) { // autosave A, edit, die while autosaving B
        if (mode == QLatin1String("write-named") ? !w->openFile(design) : !w->newFromReference(design))
            return 10;
        if (!firstEdit(*w)) return 11;
        if (!w->autosave().saveNow()) return 12;
        if (!writeText(expect + "A.json", QByteArray::fromStdString(dump(*w)))) return 13;
        if (!secondEdit(*w)) return 11;
        if (!writeText(expect + "B.json", QByteArray::fromStdString(dump(*w)))) return 13;
        killAt(step);
        w->autosave().saveNow();
        return 20;
    }
    killAt(step); // recover, and die on the way
    if (mode == QLatin1String("recover-named"))
        w->openFile(design);
    else if (mode == QLatin1String("recover-untitled"))
        w->offerUntitledRecovery();
    else if (mode == QLatin1String("recover-startup"))
        w->offerStartupRecovery();
    return 21;
}

/// Replaces the owner in a side file's first line (the header the autosave writer controls).
bool setOwner(const QString& path, const QJsonObject& owner) {
    QByteArray text = readText(path);
    const qsizetype nl = text.indexOf('\n');
    QJsonObject header = QJsonDocument::fromJson(text.left(nl)).object();
    if (header.isEmpty()) return false;
    header.insert(QStringLiteral("owner"), owner);
    return writeText(path, QJsonDocument(header).toJson(QJsonDocument::Compact) + text.mid(nl));
}

QJsonObject owner(qint64 pid, const QString& bootId, quint64 startTicks) {
    return {{QStringLiteral("pid"), pid},
            {QStringLiteral("boot_id"), bootId},
            {QStringLiteral("start_ticks"), static_cast<qint64>(startTicks)}};
}

bool offered(const QList<Autosave::Recovery>& list, const QString& path) {
    for (const auto& r : list)
        if (QFileInfo(r.autosavePath).absoluteFilePath() == QFileInfo(path).absoluteFilePath()) return true;
    return false;
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_design;

    QString autosaveDir() const { return m_tmp.path() + "/autosave"; }

    /// The side files (and .meta files) in the autosave folder; temporaries (hidden) aside.
    QStringList sideFiles() const { return QDir(autosaveDir()).entryList(QDir::Files, QDir::Name); }

    void clearAutosaves() {
        QDir dir(autosaveDir());
        for (const QString& f : dir.entryList(QDir::Files | QDir::Hidden))
            dir.remove(f);
    }

    void freshDesign() {
        QFile::remove(m_design);
        QVERIFY(QFile::copy(kReference, m_design));
        QFile::setPermissions(m_design, QFile::ReadOwner | QFile::WriteOwner);
    }

    /// Runs this program in child `mode`; it must die of SIGKILL (raised at `step`, or sent by us once it
    /// says AUTOSAVED in "crash" mode).
    void runChildUntilKilled(const QString& mode, const QString& step = {}) {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(kChildEnv, mode);
        env.insert(kDesignEnv, m_design);
        env.insert(kExpectEnv, m_tmp.path() + "/expected-");
        env.insert(kKillEnv, step);
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted());
        if (mode == QLatin1String("crash")) {
            QElapsedTimer t;
            t.start();
            QByteArray out;
            while (!out.contains("AUTOSAVED") && t.elapsed() < 60000) {
                child.waitForReadyRead(200);
                out += child.readAllStandardOutput();
                QVERIFY2(child.state() == QProcess::Running,
                         qPrintable(QStringLiteral("child exited with %1: %2")
                                        .arg(child.exitCode())
                                        .arg(QString::fromLocal8Bit(child.readAllStandardError()))));
            }
            QVERIFY2(out.contains("AUTOSAVED"), out.constData());
            child.kill(); // SIGKILL: no close event, no cleanup, like a crash
        }
        QVERIFY(child.waitForFinished(60000));
        QVERIFY2(child.exitStatus() == QProcess::CrashExit,
                 qPrintable(QStringLiteral("%1 at %2: not killed (exit code %3): %4")
                                .arg(mode, step)
                                .arg(child.exitCode())
                                .arg(QString::fromLocal8Bit(child.readAllStandardError()))));
    }

    /// An autosave of an untitled design written by this process, copied under `name` with `who` as its
    /// owner (what a session that is gone, or another running one, would have left).
    QString plantAutosave(const QString& name, const QJsonObject& who) {
        auto w = makeWindow();
        if (!w->newFromReference(kReference) || !firstEdit(*w) || !w->autosave().saveNow()) return {};
        const QString path = autosaveDir() + "/" + name;
        QFile::remove(path);
        if (!QFile::copy(w->autosave().currentAutosavePath(), path) || !setOwner(path, who)) return {};
        w->autosave().discard();
        return path;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CTWIN_DATA_DIR", CTWIN_BUILD_DATA_DIR);
        qputenv("CTWIN_AUTOSAVE_DIR", autosaveDir().toUtf8());
        m_design = m_tmp.path() + "/design.json";
        freshDesign();
    }

    void init() {
        clearAutosaves();
        Autosave::setStepHook({});
    }

    void restoresTheAutosaveAfterACrash() {
        runChildUntilKilled(QStringLiteral("crash"));
        const auto recovery = Autosave::findRecovery(m_design);
        QVERIFY(recovery.has_value());
        ScriptedPrompts* answers = nullptr;
        auto w = makeWindow(&answers);
        QVERIFY(w->openFile(m_design));
        QCOMPARE(answers->restoreQuestions, 1);
        QCOMPARE(QByteArray::fromStdString(dump(*w)), readText(m_tmp.path() + "/expected-B.json"));
        QVERIFY(w->isModified());
        QCOMPARE(w->filePath(), m_design);
        // Saving makes the file current and removes the side files.
        QVERIFY(w->save());
        QVERIFY(!Autosave::findRecovery(m_design).has_value());
        QVERIFY(!QFile::exists(recovery->autosavePath));
        QCOMPARE(sideFiles(), QStringList());
    }

    void decliningKeepsTheFileAndDropsTheAutosave() {
        freshDesign();
        const std::string original = ctwin::model::dumpJson(
            ctwin::model::projectToJson(ctwin::model::loadProjectJson(m_design.toStdString())));
        QTest::qWait(20); // the autosave must be newer than the file
        runChildUntilKilled(QStringLiteral("crash"));
        QVERIFY(Autosave::findRecovery(m_design).has_value());
        ScriptedPrompts* answers = nullptr;
        auto w = makeWindow(&answers);
        answers->restore = false;
        QVERIFY(w->openFile(m_design));
        QCOMPARE(dump(*w), original);
        QVERIFY(!w->isModified());
        QVERIFY(!Autosave::findRecovery(m_design).has_value());
    }

    void untitledWorkIsOfferedAtStart() {
        // An untitled autosave of an earlier version (bare design + .meta) of a process that is gone.
        const QString dir = Autosave::directory();
        QVERIFY(QFile::copy(kReference, dir + "/untitled-999999.json"));
        QVERIFY(writeText(dir + "/untitled-999999.json.meta", R"({"path":"","pid":999999})"));
        auto w = makeWindow();
        QVERIFY(w->offerUntitledRecovery());
        QCOMPARE(w->document().project().racks.size(), size_t(7 + 4)); // 7 NVL72 racks, 4 network racks
        QVERIFY(w->isModified());
        QVERIFY(w->filePath().isEmpty());
        QVERIFY(!QFile::exists(dir + "/untitled-999999.json"));
        QVERIFY(!QFile::exists(dir + "/untitled-999999.json.meta"));
    }

    void leftBehindWorkIsRecoverableAfterOpeningAnotherFile() {
        // Started on a file, the window says other unsaved work is left and File > Recover restores it.
        const QString dir = Autosave::directory();
        QVERIFY(QFile::copy(kReference, dir + "/untitled-999998.json"));
        QVERIFY(writeText(dir + "/untitled-999998.json.meta", R"({"path":"","pid":999998})"));
        ScriptedPrompts* answers = nullptr;
        auto w = makeWindow(&answers);
        QVERIFY(w->openFile(m_design));
        QCOMPARE(answers->restoreQuestions, 0); // the file's own autosave is gone; the other is not asked yet
        w->noteLeftBehindAutosaves();
        // Named in the message bar above the plan, with Recover (issue 36: not one status-bar line).
        QVERIFY2(w->messageBar()->text().contains("File &gt; Recover") &&
                     w->messageBar()->text().contains("untitled design"),
                 qPrintable(w->messageBar()->text()));
        QVERIFY(w->messageBar()->buttonTexts().contains("Recover..."));
        auto* recover = w->findChild<QAction*>(QStringLiteral("recoverAction"));
        QVERIFY(recover);
        recover->trigger();
        QCOMPARE(answers->restoreQuestions, 1);
        QCOMPARE(w->document().project().racks.size(), size_t(7 + 4)); // 7 NVL72 racks, 4 network racks
        QVERIFY(w->filePath().isEmpty()); // the untitled design, not the file opened first
        QVERIFY(!QFile::exists(dir + "/untitled-999998.json"));
        recover->trigger(); // nothing left (this session's own autosave is not offered): says so
        QVERIFY(w->statusBar()->currentMessage().contains("No unsaved changes"));
    }

    // --- issue 27 --------------------------------------------------------------------------------------

    /// The owner is this boot's id and this process's start time (field 22 of /proc/self/stat).
    void ownerIsBootIdAndStartTime() {
        if (!QFile::exists("/proc/self/stat")) QSKIP("no /proc");
        const SessionOwner me = SessionOwner::current();
        QCOMPARE(me.pid, std::int64_t(::getpid()));
        QCOMPARE(me.bootId, QString::fromLatin1(readText("/proc/sys/kernel/random/boot_id").trimmed()));
        const QByteArray stat = readText("/proc/self/stat");
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        QCOMPARE(me.startTicks,
                 std::uint64_t(fields.at(22 - 3).toULongLong())); // fields count from 3 after "(comm)"
        QVERIFY(me.startTicks > 0);
        QCOMPARE(me.state(QDateTime::currentDateTime()), SessionOwner::State::ThisProcess);
        QCOMPARE(SessionOwner::fromJson(me.toJson()).startTicks, me.startTicks);
    }

    /// One file, written atomically, with its metadata in its first line: no .meta, nothing to pair up.
    void sideFileCarriesItsOwnMetadata() {
        freshDesign();
        auto w = makeWindow();
        QVERIFY(w->openFile(m_design));
        QVERIFY(firstEdit(*w));
        QVERIFY(w->autosave().saveNow());
        const QString path = w->autosave().currentAutosavePath();
        QCOMPARE(sideFiles(), QStringList{QFileInfo(path).fileName()});
        const QByteArray text = readText(path);
        const QJsonObject header = QJsonDocument::fromJson(text.left(text.indexOf('\n'))).object();
        QCOMPARE(header.value("format").toString(), QStringLiteral("clustertwin-autosave"));
        QCOMPARE(header.value("document_path").toString(), QFileInfo(m_design).absoluteFilePath());
        QCOMPARE(header.value("owner").toObject(), SessionOwner::current().toJson());
        const Autosave::Recovery r{path, m_design, QDateTime::currentDateTime(), {}};
        QCOMPARE(ctwin::model::dumpJson(ctwin::model::projectToJson(Autosave::load(r, nullptr))), dump(*w));
        // A running session's autosave is never offered, not even to this process's other windows.
        QVERIFY(!Autosave::findRecovery(m_design).has_value());
        QVERIFY(Autosave::leftBehind().isEmpty());
        w->autosave().discard();
        QCOMPARE(sideFiles(), QStringList());
    }

    /// A pid repeats after a reboot: an owner of another boot is gone even when its pid runs now (here
    /// the pid is this very process).
    void ownerOfAnotherBootIsGone() {
        if (!QFile::exists("/proc/self/stat")) QSKIP("no /proc");
        const SessionOwner me = SessionOwner::current();
        const QString other = plantAutosave(
            "untitled-other-boot.ctwin-autosave",
            owner(me.pid, QStringLiteral("00000000-0000-4000-8000-000000000000"), me.startTicks));
        QVERIFY(!other.isEmpty());
        QVERIFY(offered(Autosave::orphanedUntitled(), other));
        QVERIFY(setOwner(other, me.toJson())); // the same file owned by this session: not offered
        QVERIFY(!offered(Autosave::orphanedUntitled(), other));
    }

    /// A running process with the owner's pid but another start time got the pid after the owner died.
    void pidReusedByAnotherProcessIsGone() {
        if (!QFile::exists("/proc/self/stat")) QSKIP("no /proc");
        QProcess sleeper;
        sleeper.start("sleep", {"60"});
        QVERIFY(sleeper.waitForStarted());
        const qint64 pid = sleeper.processId();
        const auto ticks = SessionOwner::startTicksOf(pid);
        QVERIFY(ticks.has_value());
        const QString boot = SessionOwner::current().bootId;
        const QString path = plantAutosave("untitled-reused.ctwin-autosave", owner(pid, boot, *ticks + 7));
        QVERIFY(!path.isEmpty());
        QVERIFY(offered(Autosave::orphanedUntitled(), path)); // pid runs, but it is not the writer
        QVERIFY(setOwner(path, owner(pid, boot, *ticks)));
        QVERIFY(!offered(Autosave::orphanedUntitled(), path)); // the writer itself, still running
        QVERIFY(!offered(Autosave::leftBehind(), path));
        sleeper.kill();
        QVERIFY(sleeper.waitForFinished());
        QVERIFY(offered(Autosave::orphanedUntitled(), path)); // and once it is gone, offered
    }

    /// An earlier version's .meta names a bare pid: the process holding it now is the writer only if it
    /// started before the file was written.
    void barePidOfAnEarlierVersionIsJudgedByStartTime() {
        if (!QFile::exists("/proc/self/stat")) QSKIP("no /proc");
        QProcess sleeper;
        sleeper.start("sleep", {"60"});
        QVERIFY(sleeper.waitForStarted());
        const qint64 pid = sleeper.processId();
        QTest::qWait(1100);
        const QString path = Autosave::directory() + QStringLiteral("/untitled-%1.json").arg(pid);
        QVERIFY(QFile::copy(kReference, path));
        QVERIFY(writeText(path + ".meta", QStringLiteral(R"({"path":"","pid":%1})").arg(pid).toUtf8()));
        namespace fs = std::filesystem;
        fs::last_write_time(path.toStdString(), fs::file_time_type::clock::now());
        QVERIFY(!offered(Autosave::orphanedUntitled(), path)); // written while it ran: its own
        fs::last_write_time(path.toStdString(), fs::file_time_type::clock::now() - std::chrono::hours(24));
        QVERIFY(offered(Autosave::orphanedUntitled(), path)); // written before it started: pid reused
        sleeper.kill();
        sleeper.waitForFinished();
    }

    /// The old writer wrote the side file, then its .meta: killed in between, the side file alone is still
    /// offered (untitled by its name's pid; a saved design's by the name findRecovery looks for).
    void sideFileWithoutMetaIsOffered() {
        const QString untitled = Autosave::directory() + "/untitled-999997.json";
        QVERIFY(QFile::copy(kReference, untitled));
        QVERIFY(offered(Autosave::orphanedUntitled(), untitled));
        QVERIFY(offered(Autosave::leftBehind(), untitled));
        clearAutosaves();

        freshDesign();
        QTest::qWait(20);
        const QString named = Autosave::autosavePathFor(m_design);
        auto j = ctwin::model::projectToJson(ctwin::model::loadProjectJson(m_design.toStdString()));
        j["project"]["name"] = "Work without meta";
        QVERIFY(writeText(named, QByteArray::fromStdString(ctwin::model::dumpJson(j))));
        QVERIFY(!QFile::exists(named + ".meta"));
        const auto found = Autosave::findRecovery(m_design);
        QVERIFY(found.has_value());
        QCOMPARE(found->autosavePath, QFileInfo(named).absoluteFilePath());
        ScriptedPrompts* answers = nullptr;
        auto w = makeWindow(&answers);
        QVERIFY(w->openFile(m_design));
        QCOMPARE(answers->restoreQuestions, 1);
        QCOMPARE(w->document().project().info.name, std::string("Work without meta"));
        QVERIFY(!QFile::exists(named));
        QCOMPARE(sideFiles(), QStringList{QFileInfo(w->autosave().currentAutosavePath()).fileName()});
        w->autosave().discard();
    }

    /// A .meta without its side file (killed with the .meta written first) holds no work: nothing offered.
    void metaWithoutSideFileOffersNothing() {
        QVERIFY(
            writeText(Autosave::directory() + "/untitled-999996.json.meta", R"({"path":"","pid":999996})"));
        QVERIFY(Autosave::orphanedUntitled().isEmpty());
        QVERIFY(Autosave::leftBehind().isEmpty());
        auto w = makeWindow();
        QVERIFY(!w->offerStartupRecovery());
    }

    /// After File > Recover the restored work is autosaved at once, and the old side file goes only after
    /// that: at every step at least one complete copy is on disk.
    void recoveryIsAutosavedAtOnceBeforeTheOldFileGoes() {
        freshDesign();
        runChildUntilKilled(QStringLiteral("write-untitled"), QStringLiteral("done"));
        const QList<Autosave::Recovery> before = Autosave::leftBehind();
        QCOMPARE(before.size(), 1);
        const QString old = before.front().autosavePath;
        const QByteArray expected = readText(m_tmp.path() + "/expected-B.json");
        auto w = makeWindow();
        const QString mine = w->autosave().currentAutosavePath();
        QStringList seen;
        Autosave::setStepHook([&](const char* step) {
            seen << QString::fromLatin1(step);
            QVERIFY2(QFile::exists(old) || QFile::exists(mine), step); // never a moment with no copy
            if (seen.last() == QLatin1String("committed")) QVERIFY(QFile::exists(old) && QFile::exists(mine));
        });
        QVERIFY(w->offerStartupRecovery());
        Autosave::setStepHook({});
        QCOMPARE(seen, (QStringList{"takeover", "temp-created", "temp-half-written", "temp-written",
                                    "committed", "done"}));
        QCOMPARE(QByteArray::fromStdString(dump(*w)), expected);
        QVERIFY(!QFile::exists(old));
        QCOMPARE(sideFiles(), QStringList{QFileInfo(mine).fileName()});
        const Autosave::Recovery copy{mine, {}, QDateTime::currentDateTime(), {}};
        QCOMPARE(QByteArray::fromStdString(
                     ctwin::model::dumpJson(ctwin::model::projectToJson(Autosave::load(copy, nullptr)))),
                 expected);
        w->autosave().discard();
    }

    /// Windows of one process write side files of their own: discarding one keeps the other's.
    void windowsKeepSeparateSideFiles() {
        auto a = makeWindow();
        auto b = makeWindow();
        QVERIFY(a->newFromReference(kReference) && b->newFromReference(kReference));
        QVERIFY(firstEdit(*a) && firstEdit(*b));
        QVERIFY(a->autosave().saveNow() && b->autosave().saveNow());
        QVERIFY(a->autosave().currentAutosavePath() != b->autosave().currentAutosavePath());
        a->autosave().discard();
        QVERIFY(QFile::exists(b->autosave().currentAutosavePath()));
        b->autosave().discard();
        QCOMPARE(sideFiles(), QStringList());
    }

    /// Kills at every step of writing an autosave and of recovering one. After each, a later start is
    /// offered exactly one recovery: the work being saved when the kill came after the rename, else the
    /// previous autosave; restoring it gives that document, and it becomes the new session's autosave.
    void killAtEveryStepLeavesWorkToRecover_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("expect"); // A: the previous autosave, B: the latest work, L: the old file
        const QStringList write{"temp-created", "temp-half-written", "temp-written", "committed", "done"};
        const QStringList recover = QStringList{"takeover"} + write;
        for (const QString kind : {"named", "untitled"})
            for (const QString& step : write)
                QTest::addRow("write-%s at %s", qPrintable(kind), qPrintable(step))
                    << "write-" + kind << step << (write.indexOf(step) < 3 ? "A" : "B");
        for (const QString kind : {"named", "untitled", "legacy", "legacy-without-meta"})
            for (const QString& step : recover)
                QTest::addRow("recover-%s at %s", qPrintable(kind), qPrintable(step))
                    << "recover-" + kind << step << (kind.startsWith("legacy") ? "L" : "B");
    }

    void killAtEveryStepLeavesWorkToRecover() {
        QFETCH(QString, scenario);
        QFETCH(QString, step);
        QFETCH(QString, expect);
        freshDesign();
        QTest::qWait(20); // every autosave is newer than the file
        const bool named = scenario.endsWith(QLatin1String("named"));
        QByteArray expected;
        if (scenario.startsWith(QLatin1String("write-"))) {
            runChildUntilKilled(scenario, step);
            expected = readText(m_tmp.path() + "/expected-" + expect + ".json");
        } else if (scenario == QLatin1String("recover-named") ||
                   scenario == QLatin1String("recover-untitled")) {
            runChildUntilKilled(named ? QStringLiteral("write-named") : QStringLiteral("write-untitled"),
                                QStringLiteral("done"));
            expected = readText(m_tmp.path() + "/expected-B.json");
            runChildUntilKilled(scenario, step);
        } else { // a side file of an earlier version, with and without its .meta
            auto j = ctwin::model::projectToJson(ctwin::model::loadProjectJson(m_design.toStdString()));
            j["project"]["name"] = "Left by an earlier version";
            const QString legacy = Autosave::directory() + "/untitled-999995.json";
            QVERIFY(writeText(legacy, QByteArray::fromStdString(ctwin::model::dumpJson(j))));
            if (scenario == QLatin1String("recover-legacy"))
                QVERIFY(writeText(legacy + ".meta", R"({"path":"","pid":999995})"));
            expected = QByteArray::fromStdString(ctwin::model::dumpJson(
                ctwin::model::projectToJson(ctwin::model::projectFromJson(j, "legacy", nullptr))));
            runChildUntilKilled(QStringLiteral("recover-startup"), step);
        }
        QVERIFY(!expected.isEmpty());

        // A later start: exactly one offer (an interrupted takeover's two copies count once).
        const QList<Autosave::Recovery> offers = Autosave::leftBehind();
        QVERIFY2(offers.size() == 1, qPrintable(sideFiles().join(", ")));
        ScriptedPrompts* answers = nullptr;
        auto w = makeWindow(&answers);
        if (named) {
            QVERIFY(w->openFile(m_design));
            QCOMPARE(answers->restoreQuestions, 1);
        } else {
            QVERIFY(w->offerStartupRecovery());
        }
        QCOMPARE(QByteArray::fromStdString(dump(*w)), expected);
        QVERIFY(w->isModified());
        // Restored, it is this session's autosave; what the killed sessions left is gone.
        QCOMPARE(sideFiles(), QStringList{QFileInfo(w->autosave().currentAutosavePath()).fileName()});
        w->autosave().discard();
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (const QString mode = qEnvironmentVariable(kChildEnv); !mode.isEmpty()) {
        QStandardPaths::setTestModeEnabled(true);
        return runChild(mode);
    }
    TestAutosave test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_autosave.moc"
