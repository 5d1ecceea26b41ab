#include "new_design_wizard.h"

#include "calendar_date.h"
#include "input_error.h"
#include "named_places.h"
#include "new_command.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

namespace ctwin::app {

namespace {

/// A number typed in the user's locale or in C notation; nullopt for text, NaN or infinity.
std::optional<double> parseNumber(const QString& text) {
    bool ok = false;
    double v = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok) v = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v;
}

} // namespace

NewDesignWizard::NewDesignWizard(const model::Catalog& catalog, const model::AssumptionSet& defaults,
                                 QWidget* parent)
    : QDialog(parent), m_catalog(catalog), m_defaults(defaults) {
    setWindowTitle(tr("New design from target"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);

    m_targetKind = new QComboBox(this);
    m_targetKind->setObjectName(QStringLiteral("targetKind"));
    m_targetKind->addItem(tr("GPUs"), QStringLiteral("gpus"));
    m_targetKind->addItem(tr("IT power (MW)"), QStringLiteral("it_mw"));
    m_targetValue = new QLineEdit(QStringLiteral("100000"), this);
    m_targetValue->setObjectName(QStringLiteral("targetValue"));
    m_targetValue->setToolTip(
        tr("Sellable GPUs (rounded up to whole racks; hot spares come on top), or peak IT "
           "power in MW (met within one rack)"));
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_targetKind);
    targetRow->addWidget(m_targetValue, 1);
    // A label on a layout row gets no buddy from QFormLayout: give it one so Alt+T works and "&" is not
    // shown.
    auto* targetLabel = new QLabel(tr("&Target:"), this);
    targetLabel->setBuddy(m_targetValue);
    form->addRow(targetLabel, targetRow);

    m_rack = new QComboBox(this);
    m_rack->setObjectName(QStringLiteral("rackType"));
    for (const auto* r : m_catalog.byCategory("racks"))
        if (r->kind == "compute")
            m_rack->addItem(QString::fromStdString(r->name + " (" + r->id + ")"),
                            QString::fromStdString(r->id));
    if (const int i = m_rack->findData(QStringLiteral("gb200-nvl72")); i >= 0) m_rack->setCurrentIndex(i);
    form->addRow(tr("&Rack type:"), m_rack);

    m_cooling = new QComboBox(this);
    m_cooling->setObjectName(QStringLiteral("cooling"));
    m_cooling->addItem(tr("Liquid, dry coolers"), QStringLiteral("dry_cooler"));
    m_cooling->addItem(tr("Liquid, cooling towers"), QStringLiteral("tower"));
    m_cooling->addItem(tr("Liquid, chillers"), QStringLiteral("chiller"));
    m_cooling->addItem(tr("Air"), QStringLiteral("air"));
    form->addRow(tr("&Cooling:"), m_cooling);

    m_buildings = new QSpinBox(this);
    m_buildings->setObjectName(QStringLiteral("buildings"));
    // 0 = automatic: sized to the target like `clustertwin-cli new` without --buildings / --halls
    // (cost::automaticHalls); the summary below says what it chose.
    m_buildings->setRange(0, 100);
    m_buildings->setSpecialValueText(tr("Automatic"));
    m_buildings->setValue(0);
    m_buildings->setToolTip(tr("Automatic: no hall above 36.25 MW of rack load or 384 racks, at most 4 "
                               "halls per building"));
    m_halls = new QSpinBox(this);
    m_halls->setObjectName(QStringLiteral("halls"));
    m_halls->setRange(0, 50);
    m_halls->setSpecialValueText(tr("Automatic"));
    m_halls->setValue(0);
    m_halls->setToolTip(m_buildings->toolTip());
    form->addRow(tr("&Buildings:"), m_buildings);
    form->addRow(tr("&Halls per building:"), m_halls);

    addSiteRows(form);

    m_tiers = new QComboBox(this);
    m_tiers->setObjectName(QStringLiteral("tiers"));
    m_tiers->addItem(tr("Fewest that fit"), 0);
    m_tiers->addItem(tr("1 tier"), 1);
    m_tiers->addItem(tr("2 tiers"), 2);
    m_tiers->addItem(tr("3 tiers"), 3);
    m_oversubscription = new QLineEdit(QStringLiteral("1"), this);
    m_oversubscription->setObjectName(QStringLiteral("oversubscription"));
    m_oversubscription->setToolTip(tr("Downlink:uplink ratio at the top tier boundary (1 = non-blocking)"));
    form->addRow(tr("Back-end &tiers:"), m_tiers);
    form->addRow(tr("&Oversubscription 1:"), m_oversubscription);

    addScheduleRows(form);

    m_preview = new QLabel(this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setWordWrap(true);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c0392b"));
    layout->addWidget(m_preview);
    layout->addWidget(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (canAccept()) accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // Generating and evaluating a 100K-GPU design takes a fraction of a second: regenerate after a short
    // pause in typing rather than on every keystroke.
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &NewDesignWizard::refreshNow);
    connect(m_phaseMonths, &QSpinBox::valueChanged, this, &NewDesignWizard::scheduleRefresh);
    for (auto* e : {m_targetValue, m_siteName, m_lat, m_lon, m_oversubscription, m_buildStart})
        connect(e, &QLineEdit::textChanged, this, &NewDesignWizard::scheduleRefresh);
    // A GPU count read as megawatts (or the reverse) is off by orders of magnitude: switching the kind of
    // target starts from a typical value of the new kind (the neocloud reference: ~100K GPUs, ~200 MW of IT).
    connect(m_targetKind, &QComboBox::currentIndexChanged, this, [this] {
        m_targetValue->setText(m_targetKind->currentData().toString() == QStringLiteral("gpus")
                                   ? QStringLiteral("100000")
                                   : QStringLiteral("150"));
    });
    for (auto* c : {m_targetKind, m_rack, m_cooling, m_tiers})
        connect(c, &QComboBox::currentIndexChanged, this, &NewDesignWizard::scheduleRefresh);
    for (auto* s : {m_buildings, m_halls})
        connect(s, &QSpinBox::valueChanged, this, &NewDesignWizard::scheduleRefresh);
    refreshNow();
}

void NewDesignWizard::addSiteRows(QFormLayout* form) {
    // The site starts at a named place (data/places.json), never at 0 deg, 0 deg (the Gulf of Guinea, whose
    // nearest climate is thousands of km away): the first place, which the user changes or overtypes.
    m_place = makePlaceCombo(this);
    m_place->setObjectName(QStringLiteral("place"));
    m_place->setToolTip(tr("A named place fills the site's name and coordinates (data/places.json); the "
                           "climate (PUE, cooling plant) follows the nearest location of the climate table"));
    m_siteName = new QLineEdit(tr("Site 1"), this);
    m_siteName->setObjectName(QStringLiteral("siteName"));
    m_lat = new QLineEdit(this);
    m_lat->setObjectName(QStringLiteral("lat"));
    m_lon = new QLineEdit(this);
    m_lon->setObjectName(QStringLiteral("lon"));
    auto* latLon = new QHBoxLayout;
    latLon->addWidget(new QLabel(tr("lat"), this));
    latLon->addWidget(m_lat);
    latLon->addWidget(new QLabel(tr("lon"), this));
    latLon->addWidget(m_lon);
    auto pickPlace = [this](int i) {
        const QStringList latLon = m_place->itemData(i).toStringList();
        if (latLon.size() != 2) return;
        m_lat->setText(latLon[0]);
        m_lon->setText(latLon[1]);
        m_siteName->setText(m_place->itemText(i).section(QLatin1Char(','), 0, 0));
    };
    connect(m_place, &QComboBox::currentIndexChanged, this, pickPlace);
    if (m_place->count() > 1) m_place->setCurrentIndex(1);
    form->addRow(tr("&Place:"), m_place);
    form->addRow(tr("&Site:"), m_siteName);
    form->addRow(QString(), latLon);
}

void NewDesignWizard::addScheduleRows(QFormLayout* form) {
    // A phased build: the build start and one building energised every N months from build
    // start + construction_months (the generator spec's "phasing", data/FORMAT.md §4).
    m_buildStart = new QLineEdit(this);
    m_buildStart->setObjectName(QStringLiteral("buildStart"));
    m_buildStart->setPlaceholderText(tr("YYYY-MM-DD (optional)"));
    m_buildStart->setToolTip(tr("The day construction starts: the Timeline tab counts from it"));
    m_phaseMonths = new QSpinBox(this);
    m_phaseMonths->setObjectName(QStringLiteral("phaseMonths"));
    m_phaseMonths->setRange(0, 36);
    m_phaseMonths->setSpecialValueText(tr("All buildings at once"));
    m_phaseMonths->setSuffix(tr(" months apart"));
    m_phaseMonths->setToolTip(tr("Energise one building every N months, the first after the construction "
                                 "months (needs a build start)"));
    form->addRow(tr("Build &start:"), m_buildStart);
    form->addRow(tr("&Phasing:"), m_phaseMonths);
}

std::optional<cost::TargetSpec> NewDesignWizard::target(QString* problem) const {
    auto refuse = [&](const QString& why) {
        if (problem) *problem = why;
        return std::optional<cost::TargetSpec>();
    };
    cost::TargetSpec t;
    const auto value = parseNumber(m_targetValue->text());
    const bool gpus = m_targetKind->currentData().toString() == QStringLiteral("gpus");
    if (!value) return refuse(tr("The target must be a number (got '%1').").arg(m_targetValue->text()));
    if (*value <= 0)
        return refuse(gpus ? tr("The GPU count must be above zero.")
                           : tr("The IT power must be above zero."));
    if (gpus)
        t.gpus = *value;
    else
        t.itMw = *value;
    t.rackType = m_rack->currentData().toString().toStdString();
    t.cooling = m_cooling->currentData().toString().toStdString();
    if (m_buildings->value() > 0) t.buildings = m_buildings->value();
    if (m_halls->value() > 0) t.hallsPerBuilding = m_halls->value();
    t.site.name = m_siteName->text().trimmed().toStdString();
    if (t.site.name.empty()) return refuse(tr("The site needs a name."));
    const auto lat = parseNumber(m_lat->text()), lon = parseNumber(m_lon->text());
    if (!lat || std::abs(*lat) > 90) return refuse(tr("Latitude must be a number from -90 to 90."));
    if (!lon || std::abs(*lon) > 180) return refuse(tr("Longitude must be a number from -180 to 180."));
    if (*lat == 0 && *lon == 0)
        return refuse(
            tr("0°, 0° is open sea (the Gulf of Guinea): pick a place or type the site's coordinates; "
               "its climate sets the PUE and the cooling plant."));
    t.site.latDeg = *lat, t.site.lonDeg = *lon;
    if (const int tiers = m_tiers->currentData().toInt(); tiers > 0) t.tiers = tiers;
    const auto over = parseNumber(m_oversubscription->text());
    if (!over || *over < 1 || *over > 64) return refuse(tr("Oversubscription must be a ratio from 1 to 64."));
    t.oversubscription = *over;
    return t;
}

void NewDesignWizard::scheduleRefresh() {
    m_project.reset();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_timer->start();
}

void NewDesignWizard::refreshNow() {
    m_timer->stop();
    m_project.reset();
    QString why;
    const auto t = target(&why);
    if (t) {
        try {
            auto spec = designSpecForTarget(*t);
            cost::applyBuildSchedule(spec, m_buildStart->text().trimmed().toStdString(),
                                     m_phaseMonths->value(), m_defaults,
                                     model::InputLocation{"New from target", "", "", "", "build start"});
            auto project = cost::generateDesign(spec, m_catalog, m_defaults);
            const auto s = cost::summarize(project, m_catalog, m_defaults);
            const QLocale loc;
            m_preview->setText(
                tr("%1 racks (%2 hot spares) and %8 network rack(s) · %3 GPUs · %4 MW IT at full load · "
                   "%5 building(s), %6 hall(s), %7 CDUs")
                    .arg(loc.toString(s.racks))
                    .arg(loc.toString(s.spareRacks))
                    .arg(loc.toString(static_cast<qlonglong>(s.gpus)))
                    .arg(loc.toString(s.itPeakMw, 'f', 1))
                    .arg(s.buildings)
                    .arg(s.halls)
                    .arg(s.coolingUnits)
                    .arg(loc.toString(s.networkRacks)));
            m_project = std::move(project);
        } catch (const model::InputError& e) {
            why = QString::fromStdString(e.problem());
        } catch (const std::exception& e) {
            why = QString::fromUtf8(e.what());
        }
    }
    if (!m_project) m_preview->setText(tr("No design: fix the problem below."));
    m_problem->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_project.has_value());
}

QString NewDesignWizard::problem() const {
    return m_problem->text();
}
QString NewDesignWizard::previewText() const {
    return m_preview->text();
}
bool NewDesignWizard::canAccept() const {
    return m_project.has_value() && !m_timer->isActive();
}

model::Project NewDesignWizard::takeProject() {
    model::Project p = std::move(*m_project);
    m_project.reset();
    return p;
}

} // namespace ctwin::app
