// File > New from target, driven as a user drives it (offscreen): the live preview, values refused inline
// with OK disabled, the same design as `clustertwin-cli new` with the same options, and the menu entry
// opening the generated design as a new untitled document.
#include "data_paths.h"
#include "design_file.h"
#include "design_json.h"
#include "gui/new_design_wizard.h"
#include "main_window.h"
#include "test_window.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using ctwin::app::NewDesignWizard;

namespace {

void setCombo(NewDesignWizard& w, const char* name, const QString& data) {
    auto* c = w.findChild<QComboBox*>(name);
    QVERIFY(c);
    const int i = c->findData(data);
    QVERIFY2(i >= 0, qPrintable(data));
    c->setCurrentIndex(i);
}

void setText(NewDesignWizard& w, const char* name, const QString& text) {
    auto* e = w.findChild<QLineEdit*>(name);
    QVERIFY(e);
    e->setText(text);
}

void setSpin(NewDesignWizard& w, const char* name, int v) {
    auto* s = w.findChild<QSpinBox*>(name);
    QVERIFY(s);
    s->setValue(v);
}

QPushButton* okButton(NewDesignWizard& w) {
    return w.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

} // namespace

class TestNewDesignWizard : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    ctwin::model::Catalog m_catalog;
    ctwin::model::AssumptionSet m_defaults;

private slots:
    void initTestCase() {
        useTestEnvironment(m_dir.filePath("autosave"));
        m_catalog = ctwin::app::loadDefaultCatalog();
        m_defaults = ctwin::app::loadDefaultAssumptions();
    }

    void previewFollowsTheTargets() {
        NewDesignWizard w(m_catalog, m_defaults);
        // Defaults: 100,000 GB200 GPUs, buildings and halls automatic. ceil(100000 / 72) = 1,389 sellable
        // racks, + ceil(1389 x 0.02) = 28 spares = 1,417 racks, 102,024 GPUs installed. Halls: 1,417 x 132 kW
        // = 187.04 MW / 36.25 MW = 5.16 -> 6 (by racks: 1,417 / 384 -> 4); 6 halls at most 4 to a building
        // -> 2 buildings of 3 halls.
        QVERIFY(w.canAccept());
        const QLocale loc;
        QVERIFY2(w.previewText().contains(loc.toString(1417) + " racks (28 hot spares)"),
                 qPrintable(w.previewText()));
        QVERIFY(w.previewText().contains(loc.toString(102024) + " GPUs"));
        QVERIFY2(w.previewText().contains("2 building(s), 6 hall(s)"), qPrintable(w.previewText()));
        // A picture of the wizard when CTWIN_SCREENSHOT_DIR is set (to look at), valid and refusing a value.
        const QByteArray shots = qgetenv("CTWIN_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.grab().save(QString::fromUtf8(shots) + "/new_design_wizard.png"));
        }
        // A change disables OK until the preview is regenerated.
        setText(w, "targetValue", "720");
        QVERIFY(!okButton(w)->isEnabled());
        setSpin(w, "buildings", 1);
        setSpin(w, "halls", 1);
        w.refreshNow();
        QVERIFY(okButton(w)->isEnabled());
        // 720 GPUs = 10 racks + ceil(0.2) = 1 spare.
        QVERIFY2(w.previewText().startsWith("11 racks (1 hot spares) and 1 network rack(s) · 792 GPUs"),
                 qPrintable(w.previewText()));
    }

    void refusesInvalidValuesInline_data() {
        QTest::addColumn<QString>("widget");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative GPUs") << "targetValue"
                                       << "-5"
                                       << "above zero";
        QTest::newRow("zero GPUs") << "targetValue"
                                   << "0"
                                   << "above zero";
        QTest::newRow("not a number") << "targetValue"
                                      << "lots"
                                      << "must be a number";
        QTest::newRow("NaN") << "targetValue"
                             << "nan"
                             << "must be a number";
        QTest::newRow("latitude") << "lat"
                                  << "95"
                                  << "Latitude";
        QTest::newRow("longitude") << "lon"
                                   << "east"
                                   << "Longitude";
        QTest::newRow("oversubscription") << "oversubscription"
                                          << "0.5"
                                          << "Oversubscription";
        QTest::newRow("no site name") << "siteName"
                                      << "  "
                                      << "site needs a name";
    }
    void refusesInvalidValuesInline() {
        QFETCH(QString, widget);
        QFETCH(QString, text);
        QFETCH(QString, message);
        NewDesignWizard w(m_catalog, m_defaults);
        setText(w, widget.toUtf8().constData(), text);
        w.refreshNow();
        QVERIFY2(w.problem().contains(message), qPrintable(w.problem()));
        QVERIFY(!okButton(w)->isEnabled());
        QVERIFY(!w.canAccept());
        if (const QByteArray shots = qgetenv("CTWIN_SCREENSHOT_DIR"); !shots.isEmpty() && widget == "lat") {
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.grab().save(QString::fromUtf8(shots) + "/new_design_wizard_refused.png"));
        }
        // What the user typed stays in the field.
        QCOMPARE(w.findChild<QLineEdit*>(widget)->text(), text);
    }

    // Issue 30 item 2: the site starts at a named place, never at 0 deg, 0 deg; typing 0, 0 is refused
    // inline; picking a place fills the name and coordinates.
    void siteStartsAtANamedPlaceAndRefusesNullIsland() {
        NewDesignWizard w(m_catalog, m_defaults);
        auto* place = w.findChild<QComboBox*>("place");
        QVERIFY(place && place->count() > 10);
        QCOMPARE(place->currentText(), QString("Abilene, Texas, US")); // the first place of data/places.json
        QCOMPARE(w.findChild<QLineEdit*>("lat")->text(), QString("32.4487"));
        QCOMPARE(w.findChild<QLineEdit*>("lon")->text(), QString("-99.7331"));
        QCOMPARE(w.findChild<QLineEdit*>("siteName")->text(), QString("Abilene"));
        setText(w, "lat", "0");
        setText(w, "lon", "0");
        w.refreshNow();
        QVERIFY2(w.problem().contains("0°, 0°"), qPrintable(w.problem()));
        QVERIFY(!okButton(w)->isEnabled());
        const int lulea = place->findText("Luleå", Qt::MatchStartsWith);
        QVERIFY(lulea > 0);
        place->setCurrentIndex(lulea);
        w.refreshNow();
        QVERIFY2(w.problem().isEmpty(), qPrintable(w.problem()));
        QVERIFY(okButton(w)->isEnabled());
        QCOMPARE(w.findChild<QLineEdit*>("siteName")->text(), QString("Luleå"));
    }

    void refusesImpossibleDesignsFromTheGenerator() {
        NewDesignWizard w(m_catalog, m_defaults);
        setCombo(w, "cooling", "air"); // GB200 NVL72 is liquid-cooled
        w.refreshNow();
        QVERIFY2(w.problem().contains("cannot be air-cooled"), qPrintable(w.problem()));
        QVERIFY(!okButton(w)->isEnabled());
        setCombo(w, "cooling", "tower");
        setText(w, "targetValue", "144"); // 2 racks + 1 spare for 4 x 2 = 8 halls
        setSpin(w, "buildings", 4);
        setSpin(w, "halls", 2);
        w.refreshNow();
        QVERIFY2(w.problem().contains("8 halls for only 3 racks"), qPrintable(w.problem()));
        setSpin(w, "buildings", 0); // Automatic: one hall for 3 racks
        setSpin(w, "halls", 0);
        w.refreshNow();
        QVERIFY(w.problem().isEmpty());
        QVERIFY(okButton(w)->isEnabled());
        QVERIFY2(w.previewText().contains("1 building(s), 1 hall(s)"), qPrintable(w.previewText()));
    }

    void sameDesignAsTheCli() {
        const QString out = m_dir.filePath("cli.json");
        QProcess p;
        p.start(CTWIN_CLI_PATH, {"new",         "--it-mw", "20",      "--rack", "gb300-nvl72",
                                 "--buildings", "2",       "--halls", "1",      "--cooling",
                                 "chiller",     "--site",  "Ashburn", "--lat",  "39.04",
                                 "--lon",       "-77.49",  "--tiers", "3",      "--oversubscription",
                                 "2",           "--out",   out});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        NewDesignWizard w(m_catalog, m_defaults);
        setCombo(w, "targetKind", "it_mw");
        // Switching the kind of target starts from a typical value of that kind, not 100,000 MW.
        QCOMPARE(w.findChild<QLineEdit*>("targetValue")->text(), QString("150"));
        setText(w, "targetValue", "20");
        setCombo(w, "rackType", "gb300-nvl72");
        setCombo(w, "cooling", "chiller");
        setSpin(w, "buildings", 2);
        setSpin(w, "halls", 1);
        setText(w, "siteName", "Ashburn");
        setText(w, "lat", "39.04");
        setText(w, "lon", "-77.49");
        setCombo(w, "tiers", "3");
        setText(w, "oversubscription", "2");
        w.refreshNow();
        QVERIFY2(w.canAccept(), qPrintable(w.problem()));
        const auto fromWizard = ctwin::model::projectToJson(w.takeProject());
        const auto fromCli =
            ctwin::model::projectToJson(ctwin::store::loadDesign(out.toStdString(), &m_catalog));
        QCOMPARE(QString::fromStdString(ctwin::model::dumpJson(fromWizard)),
                 QString::fromStdString(ctwin::model::dumpJson(fromCli)));
    }

    void fileMenuOpensTheGeneratedDesign() {
        auto w = makeTestWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QAction* action = nullptr;
        for (QAction* a : w->menuBar()->actions())
            if (a->text().remove('&') == QLatin1String("File"))
                for (QAction* item : a->menu()->actions())
                    if (item->text().remove('&').startsWith(QLatin1String("New from target"))) action = item;
        QVERIFY(action);
        QString problem = "no wizard";
        QTimer::singleShot(0, [&] {
            auto* wizard = qobject_cast<NewDesignWizard*>(QApplication::activeModalWidget());
            if (!wizard) return;
            problem.clear();
            setText(*wizard, "targetValue", "1440");
            setSpin(*wizard, "buildings", 1);
            setSpin(*wizard, "halls", 2);
            wizard->refreshNow();
            if (!okButton(*wizard)->isEnabled()) problem = "OK disabled: " + wizard->problem();
            okButton(*wizard)->click();
        });
        action->trigger();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // 1,440 GB200 GPUs = 20 racks + 1 spare, an ordinary untitled design, with a network rack at the
        // start of each hall's row.
        QCOMPARE(w->document().project().racks.size(), size_t(21 + w->document().project().rows.size()));
        QCOMPARE(w->document().project().halls.size(), size_t(2));
    }
};

QTEST_MAIN(TestNewDesignWizard)
#include "test_new_design_wizard.moc"
