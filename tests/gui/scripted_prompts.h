#pragma once
// UserPrompts for widget tests: answers come from fields, questions and errors are recorded.
#include "gui/user_prompts.h"

#include <QStringList>

class ScriptedPrompts : public ctwin::app::UserPrompts {
public:
    SaveChoice saveChoice = SaveChoice::Cancel;
    bool restore = true;
    QString savePath;
    QString openPath;
    QStringList errors;
    int saveQuestions = 0;
    int restoreQuestions = 0;

    SaveChoice askSaveChanges(QWidget*, const QString&) override {
        ++saveQuestions;
        return saveChoice;
    }
    bool askRestoreAutosave(QWidget*, const QString&, const QString&) override {
        ++restoreQuestions;
        return restore;
    }
    void showError(QWidget*, const QString& title, const QString& message) override {
        errors << title + ": " + message;
    }
    QString openFileName(QWidget*, const QString&) override { return openPath; }
    QString saveFileName(QWidget*, const QString&, bool) override { return savePath; }
    QString reportPath;
    QString reportFileName(QWidget*, const QString&) override { return reportPath; }
};
