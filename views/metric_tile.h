#pragma once
#include <QFrame>

class QLabel;

namespace ctwin::views {

/// One headline figure on the dashboard: a caption, a large value and, on hover, its provenance.
class MetricTile : public QFrame {
    Q_OBJECT
public:
    MetricTile(const QString& caption, QWidget* parent = nullptr);
    void setValue(const QString& value, const QString& tooltip);
    QString value() const;
    /// A small line under the value (the P10–P90 range of the figure); hidden when empty. `stale` greys it
    /// while a newer range is being computed.
    void setRange(const QString& text, const QString& tooltip, bool stale = false);
    /// The whole range text, as set (the tile may show it broken at " · " and elided to its width).
    QString range() const;
    bool rangeStale() const { return m_rangeStale; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Lays the range text out for the tile's width: each line as given when it fits, else broken at its
    /// " · " separators, and a part still too wide elided ("…"); the whole text is in the tooltip. A tile
    /// in a grid column so never asks for more height than its lines (wrapped labels did, and overlapped
    /// the value when the dashboard was short).
    void layOutRange();

    QLabel* m_caption;
    QLabel* m_value;
    QLabel* m_range;
    QString m_rangeText, m_rangeTooltip;
    bool m_rangeStale = false;
};

} // namespace ctwin::views
