#include "metric_tile.h"

#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <algorithm>

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
    // Long captions wrap inside the tile rather than widen its column of the grid; the range is laid out
    // line by line for the tile's width (layOutRange).
    m_caption->setWordWrap(true);
    m_range->setWordWrap(false);
    // The range takes the height left under the value and shows the lines that fit there (layOutRange), so
    // a short dashboard never squeezes it over the value.
    m_range->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    m_range->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_range);
    setMinimumWidth(150);
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
    m_rangeText = text;
    m_rangeTooltip = tooltip;
    m_range->setForegroundRole(stale ? QPalette::PlaceholderText : QPalette::WindowText);
    m_range->setVisible(!text.isEmpty());
    m_rangeStale = stale;
    layOutRange();
}

QString MetricTile::range() const {
    return m_rangeText;
}

void MetricTile::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    if (event->size() != event->oldSize()) layOutRange();
}

void MetricTile::layOutRange() {
    const QFontMetrics fm(m_range->font());
    const QMargins m = layout()->contentsMargins();
    const int width = std::max(40, contentsRect().width() - m.left() - m.right());
    const QString separator = QStringLiteral(" · ");
    QStringList lines;
    bool shortened = false;
    for (const QString& line : m_rangeText.split(QLatin1Char('\n'))) {
        if (fm.horizontalAdvance(line) <= width) {
            lines << line;
            continue;
        }
        shortened = true;
        QString current; // the parts joined while they fit
        for (const QString& part : line.split(separator)) {
            const QString joined = current.isEmpty() ? part : current + separator + part;
            if (current.isEmpty() || fm.horizontalAdvance(joined) <= width) {
                current = joined;
            } else {
                lines << current;
                current = part;
            }
        }
        lines << current;
    }
    // As many lines as the height under the value holds (none on a very short dashboard: the tooltip and
    // the uncertainty line under the cost chain have it all); the last shown says more follow.
    const int left = contentsRect().height() - m.top() - m.bottom() - m_caption->heightForWidth(width) -
                     m_value->sizeHint().height();
    const int fit = std::max(0, left / std::max(1, fm.lineSpacing()));
    if (lines.size() > fit) {
        lines = lines.mid(0, fit);
        if (!lines.isEmpty()) lines.back() += QStringLiteral(" …");
        shortened = true;
    }
    for (QString& line : lines)
        line = fm.elidedText(line, Qt::ElideRight, width);
    m_range->setText(lines.join(QLatin1Char('\n')));
    m_range->setToolTip(shortened ? m_rangeText + QStringLiteral("\n\n") + m_rangeTooltip : m_rangeTooltip);
}

} // namespace ctwin::views
