#pragma once
#include "report/finance_report.h"

#include <QString>
#include <optional>

class QWidget;

namespace ctwin::app {

/// Every question the app asks the user, behind one interface so tests (and scripted runs) can answer
/// them without dialogs. DialogPrompts is the interactive implementation.
class UserPrompts {
public:
    enum class SaveChoice { Save, Discard, Cancel };
    virtual ~UserPrompts() = default;
    /// "Save changes to <name> before <action>?" `saveIsDefault` false (an untitled copy of a shipped
    /// reference design, a file the user did not create): Enter must not save, Cancel is the default.
    virtual SaveChoice askSaveChanges(QWidget* parent, const QString& documentName, bool saveIsDefault) = 0;
    /// An autosave newer than the file exists: restore it?
    virtual bool askRestoreAutosave(QWidget* parent, const QString& documentName, const QString& savedAt) = 0;
    virtual void showError(QWidget* parent, const QString& title, const QString& message) = 0;
    /// A yes/no question before a destructive edit ("Delete Hall 2 and its 4 rows?"); true to go ahead.
    virtual bool confirm(QWidget* parent, const QString& title, const QString& question) = 0;
    /// Empty when cancelled.
    virtual QString openFileName(QWidget* parent, const QString& directory) = 0;
    virtual QString saveFileName(QWidget* parent, const QString& suggested, bool jsonOnly) = 0;
    /// A folder (NetBox export and import); empty when cancelled.
    virtual QString folder(QWidget* parent, const QString& title, const QString& directory) = 0;
    /// A live NetBox to import from: its base URL and API token; nullopt when cancelled.
    struct NetBoxConnection {
        QString url, token;
    };
    virtual std::optional<NetBoxConnection> netBoxConnection(QWidget* parent) = 0;
    /// A message with details the user may expand (an import log).
    virtual void inform(QWidget* parent, const QString& title, const QString& message,
                        const QString& details) = 0;
    /// Where and how to write a finance report: a .pdf, .xlsx or .json file, or a folder for the CSV tables
    /// or the chart images. Empty when cancelled.
    struct ReportTarget {
        QString path;
        ReportFormat format;
    };
    virtual std::optional<ReportTarget> reportTarget(QWidget* parent, const QString& suggested) = 0;
};

} // namespace ctwin::app
