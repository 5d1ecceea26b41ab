#pragma once
#include "app_settings.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ctwin::app {

/// Preferences: power and length units, currency symbol, palette and autosave interval.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr);
    AppSettings settings() const;

private:
    AppSettings m_settings;
    QComboBox* m_power;
    QComboBox* m_length;
    QLineEdit* m_currency;
    QComboBox* m_theme;
    QSpinBox* m_autosave;
};

} // namespace ctwin::app
