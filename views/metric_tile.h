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

private:
    QLabel* m_caption;
    QLabel* m_value;
};

} // namespace ctwin::views
