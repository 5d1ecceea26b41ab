#include "metric_tile.h"

#include <QLabel>
#include <QVBoxLayout>

namespace ctwin::views {

MetricTile::MetricTile(const QString& caption, QWidget* parent) : QFrame(parent) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    layout->setSpacing(0);
    m_caption = new QLabel(caption, this);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    m_value = new QLabel(QStringLiteral("—"), this);
    QFont f = m_value->font();
    f.setPointSizeF(f.pointSizeF() * 1.45);
    f.setBold(true);
    m_value->setFont(f);
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_range = new QLabel(this);
    QFont small = m_range->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_range->setFont(small);
    m_range->setVisible(false);
    // Long captions and ranges wrap inside the tile rather than widen its column of the grid.
    m_caption->setWordWrap(true);
    m_range->setWordWrap(true);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_range);
    setMinimumWidth(120);
}

void MetricTile::setValue(const QString& value, const QString& tooltip) {
    m_value->setText(value);
    setToolTip(tooltip);
    m_value->setToolTip(tooltip);
    m_caption->setToolTip(tooltip);
}

QString MetricTile::value() const {
    return m_value->text();
}

void MetricTile::setRange(const QString& text, const QString& tooltip, bool stale) {
    m_range->setText(text);
    m_range->setToolTip(tooltip);
    m_range->setForegroundRole(stale ? QPalette::PlaceholderText : QPalette::WindowText);
    m_range->setVisible(!text.isEmpty());
    m_rangeStale = stale;
}

QString MetricTile::range() const {
    return m_range->text();
}

} // namespace ctwin::views
