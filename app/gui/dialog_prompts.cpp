#include "dialog_prompts.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

namespace ctwin::app {

namespace {
QString tr(const char* s) {
    return QCoreApplication::translate("ctwin::app::DialogPrompts", s);
}
} // namespace

bool DialogPrompts::confirm(QWidget* parent, const QString& title, const QString& question) {
    QMessageBox box(QMessageBox::Question, title, question, QMessageBox::Yes | QMessageBox::Cancel, parent);
    box.button(QMessageBox::Yes)->setText(title);
    box.setDefaultButton(QMessageBox::Cancel);
    return box.exec() == QMessageBox::Yes;
}

UserPrompts::SaveChoice DialogPrompts::askSaveChanges(QWidget* parent, const QString& name,
                                                      bool saveIsDefault) {
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("The design \"%1\" has unsaved changes.").arg(name),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(tr("Save them before closing it?"));
    // KiCad and QGIS default to Save; not for a copy of a shipped reference, where one Enter must not
    // lead anywhere near the reference.
    box.setDefaultButton(saveIsDefault ? QMessageBox::Save : QMessageBox::Cancel);
    switch (box.exec()) {
    case QMessageBox::Save:
        return SaveChoice::Save;
    case QMessageBox::Discard:
        return SaveChoice::Discard;
    default:
        return SaveChoice::Cancel;
    }
}

bool DialogPrompts::askRestoreAutosave(QWidget* parent, const QString& name, const QString& savedAt) {
    return QMessageBox::question(
               parent, tr("Recover unsaved work"),
               tr("ClusterTwin found unsaved changes to \"%1\" from %2, newer than the file "
                  "(the app may have stopped unexpectedly).\n\nRestore them?")
                   .arg(name, savedAt),
               QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
}

void DialogPrompts::showError(QWidget* parent, const QString& title, const QString& message) {
    QMessageBox::warning(parent, title, message);
}

QString DialogPrompts::openFileName(QWidget* parent, const QString& directory) {
    return QFileDialog::getOpenFileName(parent, tr("Open design"), directory,
                                        tr("ClusterTwin designs (*.ctwin *.json);;All files (*)"));
}

QString DialogPrompts::folder(QWidget* parent, const QString& title, const QString& directory) {
    return QFileDialog::getExistingDirectory(parent, title, directory);
}

std::optional<UserPrompts::NetBoxConnection> DialogPrompts::netBoxConnection(QWidget* parent) {
    QDialog d(parent);
    d.setWindowTitle(tr("Import from a live NetBox"));
    auto* form = new QFormLayout(&d);
    auto* url = new QLineEdit(&d);
    url->setPlaceholderText(QStringLiteral("https://netbox.example.com"));
    url->setObjectName(QStringLiteral("netboxUrl"));
    auto* token = new QLineEdit(&d);
    token->setEchoMode(QLineEdit::Password); // never shown, never stored
    token->setText(qEnvironmentVariable("NETBOX_TOKEN"));
    token->setObjectName(QStringLiteral("netboxToken"));
    form->addRow(tr("NetBox URL"), url);
    form->addRow(tr("API token (read permission on dcim)"), token);
    auto* note =
        new QLabel(tr("Read only: sites, locations, rack types, racks, power panels and feeds, devices "
                      "and device types, every page. The open design is replaced only when the "
                      "import succeeds."),
                   &d);
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    if (d.exec() != QDialog::Accepted || url->text().trimmed().isEmpty()) return std::nullopt;
    return NetBoxConnection{url->text().trimmed(), token->text().trimmed()};
}

void DialogPrompts::inform(QWidget* parent, const QString& title, const QString& message,
                           const QString& details) {
    QMessageBox box(QMessageBox::Information, title, message, QMessageBox::Ok, parent);
    box.setDetailedText(details);
    box.exec();
}

QString DialogPrompts::saveFileName(QWidget* parent, const QString& suggested, bool jsonOnly) {
    return QFileDialog::getSaveFileName(
        parent, jsonOnly ? tr("Export JSON") : tr("Save design"), suggested,
        jsonOnly ? tr("Design interchange JSON (*.json)")
                 : tr("ClusterTwin design (*.ctwin);;Design interchange JSON (*.json)"));
}

std::optional<UserPrompts::ReportTarget> DialogPrompts::reportTarget(QWidget* parent,
                                                                     const QString& suggested) {
    return askReportTarget(parent, tr("Export report"), suggested);
}

std::optional<UserPrompts::ReportTarget> askReportTarget(QWidget* parent, const QString& title,
                                                         const QString& suggested) {
    const QString pdf = tr("PDF report (*.pdf)"), xlsx = tr("Excel workbook with live formulas (*.xlsx)"),
                  json = tr("JSON for pipelines (*.json)"),
                  csv = tr("CSV tables, one file each, in a folder (*)"),
                  charts = tr("Charts as PNG and SVG images, in a folder (*)");
    QString filter = pdf;
    QString path = QFileDialog::getSaveFileName(
        parent, title, suggested, QStringList{pdf, xlsx, json, csv, charts}.join(QStringLiteral(";;")),
        &filter);
    if (path.isEmpty()) return std::nullopt;
    // The dialog does not add the extension of the chosen filter on every platform: add it here so the
    // format follows what the user picked.
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (filter == pdf && suffix != QLatin1String("pdf")) path += QStringLiteral(".pdf");
    if (filter == xlsx && suffix != QLatin1String("xlsx")) path += QStringLiteral(".xlsx");
    if (filter == json && suffix != QLatin1String("json")) path += QStringLiteral(".json");
    const ReportFormat format = filter == pdf    ? ReportFormat::Pdf
                                : filter == xlsx ? ReportFormat::Xlsx
                                : filter == json ? ReportFormat::Json
                                : filter == csv  ? ReportFormat::Csv
                                                 : ReportFormat::Charts;
    return UserPrompts::ReportTarget{path, format};
}

} // namespace ctwin::app
