// Autosave and crash recovery: a child process (this program, in child mode) opens a design, edits it,
// waits for the autosave and is killed with SIGKILL; the parent then opens the design as the next session
// would and is offered the autosave. Restoring brings back exactly the edited document, marked unsaved;
// declining keeps the file and removes the autosave.
#include "data_paths.h"
#include "design_json.h"
#include "gui/autosave.h"
#include "gui/document_editor.h"
#include "main_window.h"
#include "scripted_prompts.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cstdio>

using ctwin::app::MainWindow;

namespace {

const char* const kChildEnv = "CTWIN_AUTOSAVE_TEST_CHILD";
const char* const kExpectEnv = "CTWIN_AUTOSAVE_TEST_EXPECT";

std::string dump(const MainWindow& w) {
    return ctwin::model::dumpJson(ctwin::model::projectToJson(w.document().project()));
}

/// Child mode: edit, wait for the autosave, report, then hang until killed.
int runChild(const QString& design, const QString& expectPath) {
    MainWindow w(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
    w.setPrompts(std::make_unique<ScriptedPrompts>());
    if (!w.openFile(design)) return 10;
    w.setAutosaveInterval(1);
    const auto& p = w.document().project();
    const QString rack = QString::fromStdString(p.racks.front().id);
    if (!w.editor().setProperty({rack}, "spare", true).isEmpty()) return 11;
    if (!w.editor().nudge({rack}, QPointF(0.0, -0.6)).isEmpty()) return 12;
    QFile expect(expectPath);
    if (!expect.open(QIODevice::WriteOnly)) return 13;
    expect.write(QByteArray::fromStdString(dump(w)));
    expect.close();
    bool saved = false;
    QObject::connect(&w.autosave(), &ctwin::app::Autosave::autosaved, [&] { saved = true; });
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

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_design;

    /// Runs the child until it has autosaved, then kills it.
    void crashChild() {
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(kChildEnv, m_design);
        env.insert(kExpectEnv, m_tmp.path() + "/expected.json");
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForStarted());
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
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("CTWIN_DATA_DIR", CTWIN_BUILD_DATA_DIR);
        qputenv("CTWIN_AUTOSAVE_DIR", (m_tmp.path() + "/autosave").toUtf8());
        m_design = m_tmp.path() + "/design.json";
        QVERIFY(
            QFile::copy(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/vera-rubin-504.json"), m_design));
    }

    void restoresTheAutosaveAfterACrash() {
        crashChild();
        const auto recovery = ctwin::app::Autosave::findRecovery(m_design);
        QVERIFY(recovery.has_value());
        MainWindow w(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        auto prompts = std::make_unique<ScriptedPrompts>();
        auto* answers = prompts.get();
        answers->restore = true;
        answers->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        w.setPrompts(std::move(prompts));
        QVERIFY(w.openFile(m_design));
        QCOMPARE(answers->restoreQuestions, 1);
        QFile expect(m_tmp.path() + "/expected.json");
        QVERIFY(expect.open(QIODevice::ReadOnly));
        QCOMPARE(QByteArray::fromStdString(dump(w)), expect.readAll());
        QVERIFY(w.isModified());
        QCOMPARE(w.filePath(), m_design);
        // Saving makes the file current and removes the side file.
        QVERIFY(w.save());
        QVERIFY(!ctwin::app::Autosave::findRecovery(m_design).has_value());
        QVERIFY(!QFile::exists(recovery->autosavePath));
    }

    void decliningKeepsTheFileAndDropsTheAutosave() {
        QFile::remove(m_design);
        QVERIFY(
            QFile::copy(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/vera-rubin-504.json"), m_design));
        const std::string original = ctwin::model::dumpJson(
            ctwin::model::projectToJson(ctwin::model::loadProjectJson(m_design.toStdString())));
        QTest::qWait(20); // the autosave must be newer than the file
        crashChild();
        QVERIFY(ctwin::app::Autosave::findRecovery(m_design).has_value());
        MainWindow w(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        auto prompts = std::make_unique<ScriptedPrompts>();
        prompts->restore = false;
        w.setPrompts(std::move(prompts));
        QVERIFY(w.openFile(m_design));
        QCOMPARE(dump(w), original);
        QVERIFY(!w.isModified());
        QVERIFY(!ctwin::app::Autosave::findRecovery(m_design).has_value());
    }

    void untitledWorkIsOfferedAtStart() {
        // An untitled autosave of a process that is gone is offered by offerUntitledRecovery.
        const QString dir = ctwin::app::Autosave::directory();
        QFile::copy(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/vera-rubin-504.json"),
                    dir + "/untitled-999999.json");
        QFile meta(dir + "/untitled-999999.json.meta");
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(R"({"path":"","pid":999999})");
        meta.close();
        MainWindow w(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        auto prompts = std::make_unique<ScriptedPrompts>();
        prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        w.setPrompts(std::move(prompts));
        QVERIFY(w.offerUntitledRecovery());
        QCOMPARE(w.document().project().racks.size(), size_t(7));
        QVERIFY(w.isModified());
        QVERIFY(w.filePath().isEmpty());
        QVERIFY(!QFile::exists(dir + "/untitled-999999.json"));
    }

    void leftBehindWorkIsRecoverableAfterOpeningAnotherFile() {
        // Started on a file, the window says other unsaved work is left and File > Recover restores it.
        const QString dir = ctwin::app::Autosave::directory();
        QFile::copy(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/vera-rubin-504.json"),
                    dir + "/untitled-999998.json");
        QFile meta(dir + "/untitled-999998.json.meta");
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(R"({"path":"","pid":999998})");
        meta.close();
        MainWindow w(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        auto prompts = std::make_unique<ScriptedPrompts>();
        auto* answers = prompts.get();
        answers->restore = true;
        answers->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        w.setPrompts(std::move(prompts));
        QVERIFY(w.openFile(m_design));
        QCOMPARE(answers->restoreQuestions, 0); // the file's own autosave is gone; the other is not asked yet
        w.noteLeftBehindAutosaves();
        QVERIFY2(w.statusBar()->currentMessage().contains("File > Recover"),
                 qPrintable(w.statusBar()->currentMessage()));
        auto* recover = w.findChild<QAction*>(QStringLiteral("recoverAction"));
        QVERIFY(recover);
        recover->trigger();
        QCOMPARE(answers->restoreQuestions, 1);
        QCOMPARE(w.document().project().racks.size(), size_t(7));
        QVERIFY(w.filePath().isEmpty()); // the untitled design, not the file opened first
        QVERIFY(!QFile::exists(dir + "/untitled-999998.json"));
        recover->trigger(); // nothing left: says so, changes nothing
        QVERIFY(w.statusBar()->currentMessage().contains("No unsaved changes"));
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (const QByteArray design = qgetenv(kChildEnv); !design.isEmpty()) {
        QStandardPaths::setTestModeEnabled(true);
        return runChild(QString::fromLocal8Bit(design), qEnvironmentVariable(kExpectEnv));
    }
    TestAutosave test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_autosave.moc"
