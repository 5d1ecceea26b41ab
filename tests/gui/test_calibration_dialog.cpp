// The calibration chart (issue 17 item 5): Analysis > Calibrate to measured serving runs fits the factors
// from a CSV, charts measured against model, refuses a bad file inline naming file, line and field, and
// writes an overlay the catalog accepts.
#include "calibration.h"
#include "catalog_overlay.h"
#include "data_paths.h"
#include "gui/calibration_dialog.h"

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>

using namespace ctwin;

class TestCalibrationDialog : public QObject {
    Q_OBJECT
private slots:
    void fitsAndCharts();
    void refusesBadFileInline();
};

void TestCalibrationDialog::fitsAndCharts() {
    const model::Catalog catalog = app::loadDefaultCatalog();
    const auto& acc = catalog.at("h100-sxm");
    const auto& preset = catalog.at("llama3-70b");
    // Points the engine makes at HBM 0.70, prefill 0.55, collectives 0.90 (TP=8 and TP=4, 1024/1024 and
    // 8192/256); the dialog's fit must find those factors (to 1e-3, as test_calibration).
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("h100.csv"));
    {
        std::ofstream out(csv.toStdString());
        out << "model,accelerator,precision,input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,"
               "tokens_per_s_per_gpu\n";
        for (int g : {8, 4})
            for (auto [in, o] : {std::pair{1024.0, 1024.0}, std::pair{8192.0, 256.0}})
                for (double b : {1.0, 16.0, 128.0, 384.0}) {
                    cost::MeasuredPoint p;
                    p.model = preset.id, p.accelerator = acc.id, p.replicaGpus = g, p.inputTokens = in,
                    p.outputTokens = o;
                    const auto m = cost::servedModelForPoint(preset, p);
                    auto a = cost::acceleratorSpecOf(acc, "fp8");
                    a.hbmEfficiency = 0.7, a.computeEfficiency = 0.55, a.collectiveEfficiency = 0.9;
                    a.engine = cost::engineProfileOf(catalog.at("vllm")); // the dialog's default engine
                    if (b > cost::maxDecodeBatch(m, a, g, in + o)) continue;
                    // The engine's own point at batch b (prefill interference included), speeds only.
                    p.concurrency = b;
                    p.tokensPerSecondPerUser = 1;
                    const auto at = cost::predictPoint(m, a, p);
                    out.precision(17);
                    out << "llama3-70b,h100-sxm,fp8," << in << "," << o << "," << g << ","
                        << at.tokensPerSecondPerUser << "," << at.tokensPerSecondPerGpu << "\n";
                }
    }
    app::CalibrationDialog d(catalog);
    auto* accCombo = d.findChildren<QComboBox*>().at(0);
    auto* modelCombo = d.findChildren<QComboBox*>().at(1);
    accCombo->setCurrentIndex(accCombo->findData(QStringLiteral("h100-sxm")));
    modelCombo->setCurrentIndex(modelCombo->findData(QStringLiteral("llama3-70b")));
    QVERIFY2(d.calibrate(csv), qPrintable(d.status()));
    QVERIFY(d.result().has_value());
    QVERIFY(std::abs(d.result()->after.hbm - 0.70) < 1e-3);
    QVERIFY(std::abs(d.result()->after.compute - 0.55) < 1e-3);
    QVERIFY(std::abs(d.result()->after.collective - 0.90) < 1e-3);
    QVERIFY2(d.status().contains(QStringLiteral("decode_hbm_efficiency: 0.800 → 0.700")),
             qPrintable(d.status()));
    // Measured, model before, model after and the fitted curve.
    QCOMPARE(d.chart()->series().size(), 4);
    d.resize(900, 700);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    if (const char* shot = std::getenv("CTWIN_SCREENSHOT_DIR"))
        d.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/calibration_dialog.png"));
}

void TestCalibrationDialog::refusesBadFileInline() {
    const model::Catalog catalog = app::loadDefaultCatalog();
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("bad.csv"));
    {
        std::ofstream out(csv.toStdString());
        out << "model,accelerator,input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,tokens_per_s_"
               "per_gpu\n"
               "llama3-70b,h100-sxm,1024,1024,8,40,0\n";
    }
    app::CalibrationDialog d(catalog);
    QVERIFY(!d.calibrate(csv));
    QVERIFY(!d.result().has_value());
    QVERIFY2(
        d.status().contains(QStringLiteral("bad.csv: measured point 'line 2': field 'tokens_per_s_per_gpu'")),
        qPrintable(d.status()));
    QCOMPARE(d.chart()->series().size(), 0);
}

QTEST_MAIN(TestCalibrationDialog)
#include "test_calibration_dialog.moc"
