#pragma once
#include "user_prompts.h"

namespace ctwin::app {

/// UserPrompts answered by the user through message boxes and file dialogs.
class DialogPrompts : public UserPrompts {
public:
    SaveChoice askSaveChanges(QWidget* parent, const QString& documentName, bool saveIsDefault) override;
    bool askRestoreAutosave(QWidget* parent, const QString& documentName, const QString& savedAt) override;
    void showError(QWidget* parent, const QString& title, const QString& message) override;
    bool confirm(QWidget* parent, const QString& title, const QString& question) override;
    QString openFileName(QWidget* parent, const QString& directory) override;
    QString saveFileName(QWidget* parent, const QString& suggested, bool jsonOnly) override;
    QString folder(QWidget* parent, const QString& title, const QString& directory) override;
    std::optional<NetBoxConnection> netBoxConnection(QWidget* parent) override;
    void inform(QWidget* parent, const QString& title, const QString& message,
                const QString& details) override;
    std::optional<ReportTarget> reportTarget(QWidget* parent, const QString& suggested) override;
};

/// The save dialog of a report or comparison export: PDF, XLSX, JSON, a CSV folder or a charts folder, the
/// format following the chosen filter (its extension added when typed without). Empty when cancelled.
std::optional<UserPrompts::ReportTarget> askReportTarget(QWidget* parent, const QString& title,
                                                         const QString& suggested);

} // namespace ctwin::app
