#include "data_paths.h"
#include "gui/theme.h"
#include "main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>
#include <cstring>

namespace {

// `clustertwin --help` / `--version`, answered before Qt starts (no display needed): the manual page
// clustertwin(1) is generated from this text at build time (packaging/manpage.cmake), so keep its layout:
// a usage line, paragraphs, and "section:" headings followed by indented "tag  text" lines.
constexpr const char* kHelp =
    "usage: clustertwin [FILE]\n"
    "\n"
    "Opens the ClusterTwin desktop app, the digital twin and TCO planner for AI clusters: lay out sites,\n"
    "buildings, data halls, racks, cooling loops and fabrics on a floor plan and read the bill of\n"
    "materials, power and PUE, capex, cost per GPU-hour and per token, each figure with its formula and\n"
    "sources.\n"
    "FILE is a design (.json) or a ClusterTwin document (.ctwin) to open. Without FILE the app offers to\n"
    "recover unsaved work, or else opens the default reference design. Help > Manual (F1) shows the user\n"
    "manual; clustertwin-cli(1) runs the same engine from the command line.\n"
    "\n"
    "options:\n"
    "  -h, --help  Prints this help and exits.\n"
    "  --version  Prints the version and exits.\n"
    "  -platform NAME  Any Qt option, e.g. -platform offscreen.\n"
    "\n"
    "environment:\n"
    "  CTWIN_DATA_DIR  Folder of the catalog, assumptions and reference designs (default:\n"
    "    ../share/clustertwin beside the executable).\n"
    "  CTWIN_TIMING  1 prints the time from start to the first shown, evaluated window; quit also\n"
    "    exits then.\n";

} // namespace

// `CTWIN_TIMING=1 clustertwin [design]` prints the time from start to the first shown, evaluated window;
// CTWIN_TIMING=quit also exits right after (the start-up timing harness).
int main(int argc, char** argv) {
    QElapsedTimer startup;
    startup.start();
    if (argc == 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (argc == 2 && !std::strcmp(argv[1], "--version")) {
        std::puts("clustertwin " CTWIN_VERSION);
        return 0;
    }
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
