// The fabric form (issue 36: the oversubscription ratios follow the tier count; issue 29 item 4: the
// routing mode is chosen in the form and lands on the entity), offscreen, as a user fills it.
#include "design_json.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/authoring/authoring_form.h"
#include "main_window.h"
#include "test_window.h"

#include <QDialog>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using ctwin::app::AuthoringForm;
using ctwin::app::MainWindow;
using ctwin::model::EntityKind;

class TestFabricForm : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    ScriptedPrompts* m_prompts = nullptr;

    MainWindow& w() { return *m_window; }

private slots:
    void initTestCase() { useTestEnvironment(m_tmp.path() + "/autosave"); }

    void init() {
        m_window = makeTestWindow(&m_prompts);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        w().newDesign();
    }

    void cleanup() {
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        m_window.reset();
    }

    /// Tiers 2 -> 3 turns the default "1" into "1, 1" (a new boundary non-blocking) and the form is
    /// accepted as it stands; 3 -> 2 drops the last ratio; 1 tier has none; typed ratios are kept.
    void oversubscriptionFollowsTiers() {
        auto f = w().authoring().makeForm(EntityKind::Fabric);
        QCOMPARE(f->text("tiers"), QStringLiteral("2"));
        QCOMPARE(f->text("oversubscription"), QStringLiteral("1"));
        QVERIFY(f->setText("tiers", "3"));
        QCOMPARE(f->text("oversubscription"), QStringLiteral("1, 1"));
        QVERIFY(f->setText("oversubscription", "1, 3"));
        QVERIFY(f->setText("tiers", "2"));
        QCOMPARE(f->text("oversubscription"), QStringLiteral("1"));
        QVERIFY(f->setText("tiers", "1"));
        QCOMPARE(f->text("oversubscription"), QString());
        QVERIFY(f->setText("tiers", "3"));
        QCOMPARE(f->text("oversubscription"), QStringLiteral("1, 1"));
        // An out-of-range tier count leaves the ratios alone; the tiers field refuses it on OK.
        QVERIFY(f->setText("tiers", "4"));
        QCOMPARE(f->text("oversubscription"), QStringLiteral("1, 1"));
        QVERIFY(f->setText("tiers", "3"));
        QVERIFY(f->setChoice("routing", "spray"));
        const auto before = w().document().project().fabrics.size();
        f->accept();
        QVERIFY2(f->result() == QDialog::Accepted, qPrintable(f->errorText()));
        const auto& fabrics = w().document().project().fabrics;
        QCOMPARE(fabrics.size(), before + 1);
        QCOMPARE(fabrics.back().tiers, 3);
        QCOMPARE(fabrics.back().oversubscription, (std::vector<double>{1.0, 1.0}));
        QCOMPARE(fabrics.back().routing, std::string("spray"));
    }
};

QTEST_MAIN(TestFabricForm)
#include "test_fabric_form.moc"
