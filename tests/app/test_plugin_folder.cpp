// Issue 27: where clustertwin-cli loads its plugins from. Beside the executable (found through
// /proc/self/exe), or $CTWIN_PLUGIN_DIR; without /proc the installed folder or none, with a message, and
// never the current directory (a folder anyone may own, e.g. /tmp, must not supply code).
#include "lean/plugin_loader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

class TestPluginFolder : public QObject {
    Q_OBJECT

private slots:
    void init() { qunsetenv("CTWIN_PLUGIN_DIR"); }

    /// With /proc/self/exe readable: <exe>/../lib.../clustertwin/plugins, which the build tree has.
    void besideTheExecutable() {
        const ctwin::app::PluginFolder folder = ctwin::app::findPluginFolder();
        QVERIFY2(folder.note.empty(), folder.note.c_str());
        const fs::path exe = fs::read_symlink("/proc/self/exe");
        QVERIFY2(folder.path.rfind(exe.parent_path().parent_path().string() + "/", 0) == 0,
                 folder.path.c_str());
        QVERIFY2(folder.path.find("clustertwin/plugins") != std::string::npos, folder.path.c_str());
        qputenv("CTWIN_PLUGIN_DIR", "/somewhere/else");
        QCOMPARE(ctwin::app::findPluginFolder().path, std::string("/somewhere/else"));
        QCOMPARE(ctwin::app::pluginDirectory(), std::string("/somewhere/else"));
    }

    /// The executable's link cannot be read (no /proc): never the current directory, even one holding a
    /// plugin folder at the place the old fallback looked (./../lib/clustertwin/plugins); the installed
    /// folder when it exists, else no folder; either way the note says why.
    void missingProcNeverFallsBackToTheCurrentDirectory() {
        QTemporaryDir tmp;
        QVERIFY(QDir(tmp.path()).mkpath("work"));
        QVERIFY(QDir(tmp.path()).mkpath("lib/clustertwin/plugins"));
        QVERIFY(QDir(tmp.path()).mkpath("lib/x86_64-linux-gnu/clustertwin/plugins"));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(tmp.path() + "/work"));
        const ctwin::app::PluginFolder folder =
            ctwin::app::findPluginFolder(tmp.path().toStdString() + "/no-proc/exe");
        QDir::setCurrent(before);
        QVERIFY2(folder.path.find(tmp.path().toStdString()) == std::string::npos, folder.path.c_str());
        QVERIFY2(folder.note.find("/proc") != std::string::npos, folder.note.c_str());
        if (folder.path.empty()) {
            QVERIFY2(folder.note.find("does not exist") != std::string::npos, folder.note.c_str());
        } else {
            QVERIFY2(fs::path(folder.path).is_absolute() && fs::is_directory(folder.path),
                     folder.path.c_str());
            QVERIFY2(folder.note.find("installed plugin folder is used") != std::string::npos,
                     folder.note.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestPluginFolder)
#include "test_plugin_folder.moc"
