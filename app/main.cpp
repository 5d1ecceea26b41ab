#include "data_paths.h"
#include "gui/theme.h"
#include "main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>

// `CTWIN_TIMING=1 clustertwin [design]` prints the time from start to the first shown, evaluated window;
// CTWIN_TIMING=quit also exits right after (the start-up timing harness).
int main(int argc, char** argv) {
    QElapsedTimer startup;
    startup.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ClusterTwin"));
    QApplication::setOrganizationName(QStringLiteral("ClusterTwin"));
    QApplication::setApplicationVersion(QStringLiteral(CTWIN_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.clustertwin.ClusterTwin"));
    QApplication::setWindowIcon(ctwin::app::appIcon());
    try {
        ctwin::app::MainWindow window(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        const QStringList args = QApplication::arguments();
        if (args.size() > 1) {
            if (!window.openFile(args.at(1))) window.newDesign();
            window.noteLeftBehindAutosaves(); // other designs' unsaved changes: File > Recover
        } else if (!window.offerStartupRecovery()) {
            window.newFromReference(QString::fromStdString(ctwin::app::defaultReferenceDesign()));
        }
        window.show();
        const QByteArray timing = qgetenv("CTWIN_TIMING");
        if (!timing.isEmpty()) {
            QTimer::singleShot(0, &window, [&] {
                std::printf("startup: window shown and evaluated after %.0f ms (last evaluation %.1f ms)\n",
                            startup.nsecsElapsed() / 1e6, window.lastEvaluationMs());
                std::fflush(stdout);
                if (timing == "quit") QApplication::quit();
            });
        }
        return QApplication::exec();
    } catch (const std::exception& e) {
        QMessageBox::critical(nullptr, QStringLiteral("ClusterTwin"), QString::fromStdString(e.what()));
        return 3;
    }
}
