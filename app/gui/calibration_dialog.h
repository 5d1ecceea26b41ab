#pragma once
#include "calibration.h"
#include "catalog.h"

#include <QDialog>
#include <optional>
#include <vector>

class QChart;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ctwin::app {

/// Tools > Calibrate to measured runs: reads measured serving points (CSV or vLLM/SGLang benchmark JSON,
/// data/FORMAT.md §8), fits the accelerator's efficiency factors (cost/calibration.h) and charts measured
/// tokens/s/GPU against tokens/s/user beside the model at the catalog and at the fitted factors. "Save
/// overlay" writes the catalog overlay `clustertwin-cli calibrate --out` writes. Bad points are refused
/// inline with the message naming file, line and field.
class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    CalibrationDialog(const model::Catalog& catalog, QWidget* parent = nullptr);

    /// Loads `file` and fits (what "Fit" does); false with the error shown in the status line.
    bool calibrate(const QString& file);
    const std::optional<cost::CalibrationResult>& result() const { return m_result; }
    QChart* chart() const { return m_chart; }
    QString status() const;

private:
    void browse();
    void saveOverlay();
    void redraw();

    const model::Catalog& m_catalog;
    QLineEdit* m_file = nullptr;
    const model::CatalogItem* engine() const; // the chosen serving engine profile
    QComboBox* m_accelerator = nullptr;
    QComboBox* m_model = nullptr;
    QComboBox* m_engine = nullptr; // serving engine profile the points ran on
    QComboBox* m_precision = nullptr;
    QSpinBox* m_replicaGpus = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_save = nullptr;
    QChart* m_chart = nullptr;
    std::vector<cost::MeasuredPoint> m_points;
    std::optional<cost::CalibrationResult> m_result;
    QString m_loadedFile;
};

} // namespace ctwin::app
