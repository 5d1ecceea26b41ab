#include "usd_export_action.h"

#include "scene/usda_export.h"
#include "user_prompts.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QScopeGuard>
#include <exception>

namespace ctwin::app {

QString exportCampusUsd(QWidget* parent, UserPrompts& prompts, const views::SceneSource& source,
                        const QString& suggested, QString path) {
    const auto tr = [](const char* s) { return QCoreApplication::translate("UsdExport", s); };
    if (path.isEmpty()) {
        path = QFileDialog::getSaveFileName(parent, tr("Export OpenUSD campus"), suggested,
                                            tr("OpenUSD ASCII (*.usda)"));
        if (path.isEmpty()) return {};
    }
    if (QFileInfo(path).suffix().toLower() != QLatin1String("usda")) path += QStringLiteral(".usda");
    QApplication::setOverrideCursor(Qt::WaitCursor);
    auto restoreCursor = qScopeGuard([] { QApplication::restoreOverrideCursor(); });
    try {
        views::writeCampusUsda(source, path.toStdString());
    } catch (const std::exception& e) {
        restoreCursor.dismiss();
        QApplication::restoreOverrideCursor();
        prompts.showError(parent, tr("Export OpenUSD campus"), QString::fromStdString(e.what()));
        return {};
    }
    return path;
}

} // namespace ctwin::app
