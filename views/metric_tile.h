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
    QString range() const;
    bool rangeStale() const { return m_rangeStale; }

private:
    QLabel* m_caption;
    QLabel* m_value;
    QLabel* m_range;
    bool m_rangeStale = false;
};

} // namespace ctwin::views
