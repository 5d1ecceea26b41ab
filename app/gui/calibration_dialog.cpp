#include "calibration_dialog.h"

#include "atomic_write.h"
#include "catalog_overlay.h"
#include "chart_style.h"
#include "input_error.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDate>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace ctwin::app {

CalibrationDialog::CalibrationDialog(const model::Catalog& catalog, QWidget* parent)
    : QDialog(parent), m_catalog(catalog) {
    setWindowTitle(tr("Calibrate to measured serving runs"));
    auto* form = new QFormLayout;
    auto* fileRow = new QHBoxLayout;
    m_file = new QLineEdit;
    m_file->setPlaceholderText(tr("CSV or vLLM/SGLang benchmark JSON (data/FORMAT.md §8)"));
    auto* browseButton = new QPushButton(tr("Browse..."));
    fileRow->addWidget(m_file);
    fileRow->addWidget(browseButton);
    form->addRow(tr("Measured points"), fileRow);
    m_accelerator = new QComboBox;
    for (const auto* a : catalog.byCategory("accelerators"))
        m_accelerator->addItem(QString::fromStdString(a->name), QString::fromStdString(a->id));
    form->addRow(tr("Accelerator"), m_accelerator);
    m_model = new QComboBox;
    for (const auto* m : catalog.byCategory("models"))
        m_model->addItem(QString::fromStdString(m->name), QString::fromStdString(m->id));
    form->addRow(tr("Model preset"), m_model);
    m_engine = new QComboBox;
    for (const auto* e : catalog.byCategory("serving_engines"))
        m_engine->addItem(QString::fromStdString(e->name), QString::fromStdString(e->id));
    if (const int vllm = m_engine->findData(QStringLiteral("vllm")); vllm >= 0)
        m_engine->setCurrentIndex(vllm); // the default engine, as an inference service's and calibrate's
    m_engine->setToolTip(tr("Serving engine the points ran on: its per-step overheads and batch cap enter "
                            "every prediction (catalog serving_engines)"));
    form->addRow(tr("Serving engine"), m_engine);
    m_precision = new QComboBox;
    m_precision->addItems({QStringLiteral("fp8"), QStringLiteral("bf16"), QStringLiteral("fp4")});
    m_precision->setToolTip(tr("Used when the points do not state their precision"));
    form->addRow(tr("Precision (default)"), m_precision);
    m_replicaGpus = new QSpinBox;
    m_replicaGpus->setRange(0, 10000);
    m_replicaGpus->setSpecialValueText(tr("from the file"));
    m_replicaGpus->setToolTip(
        tr("GPUs per replica when a benchmark JSON does not record tensor_parallel_size"));
    form->addRow(tr("GPUs per replica (default)"), m_replicaGpus);

    m_chart = new QChart;
    m_chart->setTitle(tr("Tokens/s per GPU against tokens/s per user"));
    auto* view = views::makeChartView(m_chart, this);
    view->setMinimumSize(640, 400);
    m_status = new QLabel(tr("Choose a file of measured points and press Fit."));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* fit = buttons->addButton(tr("&Fit"), QDialogButtonBox::ActionRole);
    m_save = buttons->addButton(tr("&Save overlay..."), QDialogButtonBox::ActionRole);
    m_save->setEnabled(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(view, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(browseButton, &QPushButton::clicked, this, &CalibrationDialog::browse);
    connect(fit, &QPushButton::clicked, this, [this] { calibrate(m_file->text()); });
    connect(m_save, &QPushButton::clicked, this, &CalibrationDialog::saveOverlay);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    views::styleChartForPalette(m_chart, palette());
}

QString CalibrationDialog::status() const {
    return m_status->text();
}

void CalibrationDialog::browse() {
    const QString f = QFileDialog::getOpenFileName(this, tr("Measured serving points"), QString(),
                                                   tr("Points (*.csv *.json *.jsonl);;All files (*)"));
    if (!f.isEmpty()) m_file->setText(f);
}

bool CalibrationDialog::calibrate(const QString& file) {
    m_file->setText(file);
    m_result.reset();
    m_points.clear();
    m_save->setEnabled(false);
    try {
        const auto* acc = m_catalog.find(m_accelerator->currentData().toString().toStdString());
        const auto* preset = m_catalog.find(m_model->currentData().toString().toStdString());
        if (!acc || !preset) throw std::runtime_error("choose an accelerator and a model preset");
        cost::PointDefaults d;
        d.accelerator = acc->id;
        d.model = preset->id;
        d.precision = m_precision->currentText().toStdString();
        d.replicaGpus = m_replicaGpus->value();
        for (auto& p : cost::loadMeasuredPoints(file.toStdString(), d))
            if (p.accelerator == acc->id && p.model == preset->id) m_points.push_back(std::move(p));
        if (m_points.empty())
            throw std::runtime_error(file.toStdString() + ": no measured point is for " + acc->id + " with " +
                                     preset->id);
        m_result = cost::calibrateAccelerator(*acc, *preset, m_points, engine());
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot calibrate: %1").arg(QString::fromStdString(e.what())));
        redraw();
        return false;
    }
    m_loadedFile = file;
    const auto& r = *m_result;
    QStringList lines;
    const auto before = r.before.array(), after = r.after.array();
    for (int k = 0; k < 3; ++k)
        lines << (r.identified[k] ? tr("%1: %2 → %3%4")
                                        .arg(QString::fromLatin1(cost::kFactorFields[k]))
                                        .arg(before[k], 0, 'f', 3)
                                        .arg(after[k], 0, 'f', 3)
                                        .arg(r.atBound[k] ? tr(" (at the catalog bound)") : QString())
                                  : tr("%1: %2 (not moved by these points)")
                                        .arg(QString::fromLatin1(cost::kFactorFields[k]))
                                        .arg(before[k], 0, 'f', 3));
    lines << tr("RMS relative error of tokens/s/GPU over %1 points: %2% → %3%")
                 .arg(m_points.size())
                 .arg(100 * r.rmsRelativeErrorBefore, 0, 'f', 1)
                 .arg(100 * r.rmsRelativeErrorAfter, 0, 'f', 1);
    m_status->setText(lines.join(QLatin1Char('\n')));
    m_save->setEnabled(true);
    redraw();
    return true;
}

const model::CatalogItem* CalibrationDialog::engine() const {
    const auto* e = m_catalog.find(m_engine->currentData().toString().toStdString());
    return e && e->category == "serving_engines" ? e : nullptr;
}

void CalibrationDialog::redraw() {
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    if (!m_result) return;
    const auto* acc = m_catalog.find(m_points.front().accelerator);
    const auto* preset = m_catalog.find(m_points.front().model);
    auto* measured = new QScatterSeries;
    measured->setName(tr("Measured"));
    measured->setMarkerSize(10);
    measured->setColor(views::categoricalColor(0));
    auto* before = new QScatterSeries;
    before->setName(tr("Model, catalog factors"));
    before->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    before->setMarkerSize(7);
    before->setColor(views::categoricalColor(1));
    auto* after = new QScatterSeries;
    after->setName(tr("Model, fitted factors"));
    after->setMarkerSize(7);
    after->setColor(views::categoricalColor(2));
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    const auto add = [&](QScatterSeries* s, double x, double y) {
        if (!(x > 0 && y > 0)) return;
        s->append(x, y);
        xmin = std::min(xmin, x), xmax = std::max(xmax, x), ymin = std::min(ymin, y),
        ymax = std::max(ymax, y);
    };
    for (size_t i = 0; i < m_points.size(); ++i) {
        const double x = m_points[i].tokensPerSecondPerUser;
        add(measured, x, m_points[i].tokensPerSecondPerGpu);
        add(before, x, m_result->predictedBefore[i].tokensPerSecondPerGpu);
        add(after, x, m_result->predictedAfter[i].tokensPerSecondPerGpu);
    }
    // The fitted model's whole curve for the first point's setting (lengths, replica, precision).
    auto* curve = new QLineSeries;
    curve->setName(tr("Fitted model curve (first point's setting)"));
    curve->setColor(views::categoricalColor(2));
    for (const auto& c : cost::modelCurve(*acc, *preset, m_points.front(), m_result->after, engine()))
        if (c.tokensPerSecondPerUser > 0 && c.tokensPerSecondPerGpu > 0) {
            curve->append(c.tokensPerSecondPerUser, c.tokensPerSecondPerGpu);
            xmin = std::min(xmin, c.tokensPerSecondPerUser), xmax = std::max(xmax, c.tokensPerSecondPerUser);
            ymin = std::min(ymin, c.tokensPerSecondPerGpu), ymax = std::max(ymax, c.tokensPerSecondPerGpu);
        }
    auto* x = new QLogValueAxis;
    x->setTitleText(tr("tokens/s per user"));
    x->setLabelFormat(QStringLiteral("%g"));
    x->setRange(xmin / 1.3, xmax * 1.3);
    auto* y = new QLogValueAxis;
    y->setTitleText(tr("output tokens/s per GPU"));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setRange(ymin / 1.3, ymax * 1.3);
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{curve, before, after, measured}) {
        m_chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    views::styleChartForPalette(m_chart, palette());
}

void CalibrationDialog::saveOverlay() {
    if (!m_result) return;
    const QString out = QFileDialog::getSaveFileName(this, tr("Save catalog overlay"), QString(),
                                                     tr("Catalog overlay (*.json)"));
    if (out.isEmpty()) return;
    try {
        const auto* acc = m_catalog.find(m_points.front().accelerator);
        const auto overlay = cost::calibrationOverlay(
            *acc, *m_result,
            cost::CalibrationSource{m_loadedFile.toStdString(),
                                    QDate::currentDate().toString(Qt::ISODate).toStdString(),
                                    m_points.front().model, static_cast<int>(m_points.size())});
        model::writeFileAtomic(out.toStdString(), overlay.dump(2) + "\n");
        m_status->setText(m_status->text() +
                          tr("\nWrote %1: set CTWIN_CATALOG_OVERLAY=%1 (or clustertwin-cli "
                             "--catalog-overlay %1) to use it.")
                              .arg(out));
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot save the overlay: %1").arg(QString::fromStdString(e.what())));
    }
}

} // namespace ctwin::app
