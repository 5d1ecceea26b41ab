#pragma once
#include <QWidget>
#include <vector>

class QChart;
class QComboBox;
class QLabel;

namespace ctwin::cost {
struct Results;
struct SitePower;
} // namespace ctwin::cost

namespace ctwin::views {

/// The Power tab: one site's load against its supply. A chart of the site's load duration
/// curves (facility MW against the hours a year at or above it; cost::SitePower) at full load as provisioned
/// and at the operating point, with the supply stack as levels: the grid interconnect, plus the site's share
/// of on-site generation, plus its share of the battery's power (energy-limited: it rides through
/// curtailment and ramps, it is not firm capacity). Above the chart, one line of figures, each naming its
/// basis (design-day peak, annual average), and the headroom or shortfall. A site selector when the design
/// has more than one site.
class PowerView : public QWidget {
    Q_OBJECT
public:
    explicit PowerView(QWidget* parent = nullptr);
    ~PowerView() override;

    /// Shows the sites of `results` (keeps the selected site when it is still there).
    void showResults(const cost::Results& results);

    QChart* chart() const { return m_chart; }
    QComboBox* siteSelector() const { return m_sites; }
    QLabel* summaryLabel() const { return m_summary; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showSite(const cost::SitePower& site);

    QComboBox* m_sites = nullptr;
    QLabel* m_summary = nullptr;
    QChart* m_chart = nullptr;
    /// The sites last shown (a copy: the results the window holds are replaced on every edit); SitePower is
    /// complete where the constructor and destructor are defined.
    std::vector<cost::SitePower> m_shown;
};

} // namespace ctwin::views
