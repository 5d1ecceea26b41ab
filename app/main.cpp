#include <QApplication>
#include <QMessageBox>

#include "data_paths.h"
#include "main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ClusterTwin"));
    QApplication::setOrganizationName(QStringLiteral("ClusterTwin"));
    try {
        ctwin::app::MainWindow window(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        const QStringList args = QApplication::arguments();
        window.openFile(args.size() > 1 ? args.at(1) : QString::fromStdString(ctwin::app::defaultReferenceDesign()));
        window.show();
        return QApplication::exec();
    } catch (const std::exception& e) {
        QMessageBox::critical(nullptr, QStringLiteral("ClusterTwin"), QString::fromStdString(e.what()));
        return 3;
    }
}
