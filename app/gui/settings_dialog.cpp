#include "settings_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace ctwin::app {

SettingsDialog::SettingsDialog(const AppSettings& s, QWidget* parent) : QDialog(parent), m_settings(s) {
    setWindowTitle(tr("Preferences"));
    auto* form = new QFormLayout(this);
    m_power = new QComboBox(this);
    m_power->addItems({tr("Automatic (kW or MW)"), tr("Kilowatts (kW)"), tr("Megawatts (MW)")});
    m_power->setCurrentIndex(static_cast<int>(s.units.power));
    m_length = new QComboBox(this);
    m_length->addItems({tr("Metric (m)"), tr("Imperial (ft)")});
    m_length->setCurrentIndex(s.units.imperial ? 1 : 0);
    m_theme = new QComboBox(this);
    m_theme->addItems({tr("System"), tr("Light"), tr("Dark")});
    m_theme->setCurrentIndex(static_cast<int>(s.theme));
    m_autosave = new QSpinBox(this);
    m_autosave->setRange(0, 3600);
    m_autosave->setSuffix(tr(" s"));
    m_autosave->setSpecialValueText(tr("off"));
    m_autosave->setValue(s.autosaveSeconds);
    form->addRow(tr("Power"), m_power);
    form->addRow(tr("Lengths"), m_length);
    form->addRow(tr("Palette"), m_theme);
    form->addRow(tr("Autosave every"), m_autosave);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

AppSettings SettingsDialog::settings() const {
    AppSettings s = m_settings;
    s.units.power = static_cast<views::DisplayUnits::PowerUnit>(m_power->currentIndex());
    s.units.imperial = m_length->currentIndex() == 1;
    s.theme = static_cast<AppSettings::Theme>(m_theme->currentIndex());
    s.autosaveSeconds = m_autosave->value();
    return s;
}

} // namespace ctwin::app
