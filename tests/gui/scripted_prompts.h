#pragma once
// UserPrompts for widget tests: answers come from fields, questions and errors are recorded.
#include "gui/user_prompts.h"

#include <QStringList>
#include <optional>

class ScriptedPrompts : public ctwin::app::UserPrompts {
public:
    SaveChoice saveChoice = SaveChoice::Cancel;
    bool restore = true;
    QString savePath;
    QString openPath;
    QStringList errors;
    int saveQuestions = 0;
    int restoreQuestions = 0;
    /// Answer to confirm(); the questions asked are recorded.
    bool confirmAnswer = true;
    QStringList confirmations;

    /// What the last unsaved-changes question offered as its default button.
    std::optional<bool> lastSaveIsDefault;
    /// The folders and names the last save and report dialogs were opened with.
    QString lastSaveSuggested, lastReportSuggested;
    SaveChoice askSaveChanges(QWidget*, const QString&, bool saveIsDefault) override {
        ++saveQuestions;
        lastSaveIsDefault = saveIsDefault;
        return saveChoice;
    }
    bool askRestoreAutosave(QWidget*, const QString&, const QString&) override {
        ++restoreQuestions;
        return restore;
    }
    void showError(QWidget*, const QString& title, const QString& message) override {
        errors << title + ": " + message;
    }
    bool confirm(QWidget*, const QString&, const QString& question) override {
        confirmations << question;
        return confirmAnswer;
    }
    QString openFileName(QWidget*, const QString&) override { return openPath; }
    QString saveFileName(QWidget*, const QString& suggested, bool) override {
        lastSaveSuggested = suggested;
        return savePath;
    }
    QString folderPath;
    QStringList folderTitles, informations;
    QString folder(QWidget*, const QString& title, const QString&) override {
        folderTitles << title;
        return folderPath;
    }
    /// The live NetBox the import dialog answers with (nullopt: cancelled).
    std::optional<NetBoxConnection> netBox;
    std::optional<NetBoxConnection> netBoxConnection(QWidget*) override { return netBox; }
    void inform(QWidget*, const QString& title, const QString& message, const QString& details) override {
        informations << title + ": " + message + "\n" + details;
    }
    QString reportPath;
    /// The format the user picks in the dialog; by default the one the path implies.
    std::optional<ctwin::app::ReportFormat> reportFormat;
    std::optional<ReportTarget> reportTarget(QWidget*, const QString& suggested) override {
        lastReportSuggested = suggested;
        if (reportPath.isEmpty()) return std::nullopt;
        return ReportTarget{reportPath,
                            reportFormat.value_or(ctwin::app::reportFormatForPath(reportPath.toStdString()))};
    }
};
