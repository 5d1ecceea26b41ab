#pragma once
#include "assumption.h"
#include "catalog.h"
#include "design_generator.h"
#include "project.h"

#include <QDialog>
#include <optional>

class QFormLayout;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace ctwin::app {

/// File > New from target: GPU count or IT power, rack type, cooling, buildings and halls, site and back-end
/// shape. Each value is checked as it is typed (the problem shows under the form and OK stays disabled); a
/// live preview (racks, GPUs, peak IT power, buildings) comes from the design generator itself, the same
/// call `clustertwin-cli new` makes (designSpecForTarget + cost::generateDesign), so OK hands over exactly
/// the previewed design.
class NewDesignWizard : public QDialog {
    Q_OBJECT
public:
    NewDesignWizard(const model::Catalog& catalog, const model::AssumptionSet& defaults,
                    QWidget* parent = nullptr);

    /// The targets as typed, or the reason they cannot be used.
    std::optional<cost::TargetSpec> target(QString* problem = nullptr) const;
    /// Regenerates the preview now (it otherwise follows edits after a short pause).
    void refreshNow();
    /// The inline problem ("" when the targets are valid and the design generated).
    QString problem() const;
    QString previewText() const;
    bool canAccept() const;
    /// The generated design (valid after refreshNow() or acceptance with canAccept()).
    model::Project takeProject();

private:
    /// The constructor's parts: the site's place, name and coordinates; the build start and phasing.
    void addSiteRows(QFormLayout* form);
    void addScheduleRows(QFormLayout* form);
    void scheduleRefresh();

    const model::Catalog& m_catalog;
    const model::AssumptionSet& m_defaults;
    QComboBox* m_targetKind;
    QLineEdit* m_targetValue;
    QComboBox* m_rack;
    QComboBox* m_cooling;
    QSpinBox* m_buildings;
    QSpinBox* m_halls;
    QComboBox* m_place;
    QLineEdit* m_siteName;
    QLineEdit* m_lat;
    QLineEdit* m_lon;
    QComboBox* m_tiers;
    QLineEdit* m_oversubscription;
    QLineEdit* m_buildStart; // optional ISO date: the time axis's origin
    QSpinBox* m_phaseMonths; // 0: every building at once; else one building every N months
    QLabel* m_preview;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
    QTimer* m_timer;
    std::optional<model::Project> m_project;
};

} // namespace ctwin::app
