// MainWindow: the tabs filled only when shown (Figures: hundreds of rows; Timeline; Power). An evaluation
// marks them stale and fills the one in front; another is filled from the last results when it comes to
// the front.
#include "main_window.h"
#include "power_view.h"
#include "results_panel.h"
#include "timeline_view.h"

#include <QTabWidget>

namespace ctwin::app {

void MainWindow::fillFrontLazyTab() {
    QWidget* front = m_tabs->currentWidget();
    auto fill = [&](QWidget* tab, bool& stale, auto show) {
        if (!stale || front != tab) return;
        if (evaluationPending()) evaluateNow(); // fills the tab itself
        if (!stale) return;
        stale = false;
        show();
    };
    fill(m_figuresTable, m_figuresStale, [this] { m_figuresTable->showResults(m_results); });
    fill(m_timeline, m_timelineStale, [this] { m_timeline->showResults(m_results); });
    fill(m_power, m_powerStale, [this] { m_power->showResults(m_results); });
}

views::TimelineView* MainWindow::showTimeline() {
    m_tabs->setCurrentWidget(m_timeline); // currentChanged fills it when stale
    fillFrontLazyTab();
    return m_timeline;
}

views::PowerView* MainWindow::showPower() {
    m_tabs->setCurrentWidget(m_power);
    fillFrontLazyTab();
    return m_power;
}

} // namespace ctwin::app
