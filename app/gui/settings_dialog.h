#pragma once
#include "app_settings.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ctwin::app {

/// Preferences: power and length units, palette and autosave interval. There is no currency preference:
/// every figure is in US dollars (the model's only currency) and a symbol without an exchange rate would
/// relabel dollars as another currency.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr);
    AppSettings settings() const;

private:
    AppSettings m_settings;
    QComboBox* m_power;
    QComboBox* m_length;
    QComboBox* m_theme;
    QSpinBox* m_autosave;
};

} // namespace ctwin::app
