#include "heatmap_widget.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

constexpr int kLegendBar = 16;
constexpr int kGap = 6;

/// Viridis at nine evenly spaced stops (S. van der Walt and N. Smith, matplotlib, 2015): perceptually
/// uniform and readable in grey and by most colour-blind readers.
const QColor kViridis[] = {QColor(0x44, 0x01, 0x54), QColor(0x47, 0x2d, 0x7b), QColor(0x3b, 0x52, 0x8b),
                           QColor(0x2c, 0x72, 0x8e), QColor(0x21, 0x91, 0x8c), QColor(0x28, 0xae, 0x80),
                           QColor(0x5e, 0xc9, 0x62), QColor(0xad, 0xdc, 0x30), QColor(0xfd, 0xe7, 0x25)};

QColor viridis(double t) {
    t = std::clamp(t, 0.0, 1.0) * 8.0;
    const int i = std::min(7, static_cast<int>(t));
    const double f = t - i;
    const QColor& a = kViridis[i];
    const QColor& b = kViridis[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_format = [](double v) { return QString::number(v, 'g', 4); };
}

void HeatmapWidget::setData(int rows, int columns, std::vector<double> values, std::vector<bool> defined) {
    m_rows = rows;
    m_columns = columns;
    m_values = std::move(values);
    m_defined = std::move(defined);
    bool any = false;
    for (size_t i = 0; i < m_values.size() && i < m_defined.size(); ++i) {
        if (!m_defined[i]) continue;
        m_min = any ? std::min(m_min, m_values[i]) : m_values[i];
        m_max = any ? std::max(m_max, m_values[i]) : m_values[i];
        any = true;
    }
    if (!any) m_min = m_max = 0;
    update();
}

void HeatmapWidget::setAxes(const QString& rowTitle, const QStringList& rowLabels, const QString& columnTitle,
                            const QStringList& columnLabels) {
    m_rowTitle = rowTitle;
    m_rowLabels = rowLabels;
    m_columnTitle = columnTitle;
    m_columnLabels = columnLabels;
    update();
}

void HeatmapWidget::clear() {
    setData(0, 0, {}, {});
}

QColor HeatmapWidget::colorFor(double value) const {
    return viridis(m_max > m_min ? (value - m_min) / (m_max - m_min) : 0.5);
}

QRectF HeatmapWidget::plotRect() const {
    const QFontMetrics fm(font());
    int rowLabelWidth = 0;
    for (const auto& l : m_rowLabels)
        rowLabelWidth = std::max(rowLabelWidth, fm.horizontalAdvance(l));
    const int legendLabels =
        std::max(fm.horizontalAdvance(m_format(m_min)), fm.horizontalAdvance(m_format(m_max)));
    const double left = fm.height() + kGap + rowLabelWidth + kGap;
    const double right = kGap * 3 + kLegendBar + kGap + legendLabels + kGap;
    const double bottom = 2 * fm.height() + 2 * kGap;
    const double top = fm.height() / 2.0 + kGap;
    return QRectF(left, top, std::max(10.0, width() - left - right), std::max(10.0, height() - top - bottom));
}

std::pair<int, int> HeatmapWidget::cellAt(const QPoint& pos) const {
    const QRectF r = plotRect();
    if (m_rows <= 0 || m_columns <= 0 || !r.contains(pos)) return {-1, -1};
    const int column =
        std::clamp(static_cast<int>((pos.x() - r.left()) / r.width() * m_columns), 0, m_columns - 1);
    const int rowFromTop =
        std::clamp(static_cast<int>((pos.y() - r.top()) / r.height() * m_rows), 0, m_rows - 1);
    return {m_rows - 1 - rowFromTop, column};
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm(font());
    const QRectF r = plotRect();
    const QColor text = palette().color(QPalette::Text);
    if (m_rows <= 0 || m_columns <= 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No sweep yet"));
        return;
    }
    const double cw = r.width() / m_columns, ch = r.height() / m_rows;
    // Cells overlap by a fraction of a pixel so antialiasing-free fills leave no seams.
    for (int row = 0; row < m_rows; ++row)
        for (int col = 0; col < m_columns; ++col) {
            const size_t i =
                static_cast<size_t>(row) * static_cast<size_t>(m_columns) + static_cast<size_t>(col);
            const QRectF cell(r.left() + col * cw, r.bottom() - (row + 1) * ch, cw + 0.5, ch + 0.5);
            p.fillRect(cell, i < m_defined.size() && m_defined[i] ? colorFor(m_values[i])
                                                                  : QColor(0xbb, 0xbb, 0xbb));
        }
    // The values themselves when the cells are large enough to hold them (small grids).
    int valueWidth = 0;
    for (size_t i = 0; i < m_values.size() && i < m_defined.size(); ++i)
        if (m_defined[i]) valueWidth = std::max(valueWidth, fm.horizontalAdvance(m_format(m_values[i])));
    if (cw >= valueWidth + 8 && ch >= fm.height() + 4) {
        for (int row = 0; row < m_rows; ++row)
            for (int col = 0; col < m_columns; ++col) {
                const size_t i =
                    static_cast<size_t>(row) * static_cast<size_t>(m_columns) + static_cast<size_t>(col);
                if (i >= m_defined.size() || !m_defined[i]) continue;
                const QColor c = colorFor(m_values[i]);
                // Dark text on the light (yellow-green) end of viridis, light text on the dark end.
                const double luma = 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF(); // ITU-R BT.601
                p.setPen(luma > 0.5 ? QColor(0x10, 0x10, 0x10) : QColor(0xf5, 0xf5, 0xf5));
                p.drawText(QRectF(r.left() + col * cw, r.bottom() - (row + 1) * ch, cw, ch), Qt::AlignCenter,
                           m_format(m_values[i]));
            }
    }
    p.setPen(text);
    p.drawRect(r);

    // Axis values, thinned to every k-th so neighbours never overlap.
    const int rowStride = std::max(1, static_cast<int>(std::ceil(fm.height() * 1.2 / ch)));
    for (int row = 0; row < m_rows && row < m_rowLabels.size(); row += rowStride) {
        const double y = r.bottom() - (row + 0.5) * ch;
        p.drawText(QRectF(0, y - fm.height() / 2.0, r.left() - kGap, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, m_rowLabels[row]);
    }
    int colLabelWidth = 0;
    for (const auto& l : m_columnLabels)
        colLabelWidth = std::max(colLabelWidth, fm.horizontalAdvance(l));
    const int colStride = std::max(1, static_cast<int>(std::ceil((colLabelWidth + 2 * kGap) / cw)));
    for (int col = 0; col < m_columns && col < m_columnLabels.size(); col += colStride) {
        const double x = r.left() + (col + 0.5) * cw;
        p.drawText(QRectF(x - colLabelWidth / 2.0 - kGap, r.bottom() + kGap / 2.0, colLabelWidth + 2 * kGap,
                          fm.height()),
                   Qt::AlignHCenter | Qt::AlignTop, m_columnLabels[col]);
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(r.left(), r.bottom() + kGap + fm.height(), r.width(), fm.height() + kGap),
               Qt::AlignCenter, m_columnTitle);
    p.save();
    p.translate(fm.height() / 2.0 + 2, r.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-r.height() / 2.0, -fm.height() / 2.0, r.height(), fm.height()), Qt::AlignCenter,
               m_rowTitle);
    p.restore();
    p.setFont(font());

    // Colour legend: the scale from the minimum (bottom) to the maximum (top), with five values.
    const QRectF bar(r.right() + 3 * kGap, r.top(), kLegendBar, r.height());
    QLinearGradient g(bar.bottomLeft(), bar.topLeft());
    for (int i = 0; i <= 8; ++i)
        g.setColorAt(i / 8.0, kViridis[i]);
    p.fillRect(bar, g);
    p.drawRect(bar);
    for (int i = 0; i <= 4; ++i) {
        const double t = i / 4.0;
        const double y = bar.bottom() - t * bar.height();
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
        p.drawText(
            QRectF(bar.right() + kGap, y - fm.height() / 2.0, width() - bar.right() - kGap, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, m_format(m_min + t * (m_max - m_min)));
    }
}

bool HeatmapWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto [row, col] = cellAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            e->ignore();
            return true;
        }
        const size_t i = static_cast<size_t>(row) * static_cast<size_t>(m_columns) + static_cast<size_t>(col);
        const QString value = i < m_defined.size() && m_defined[i] ? m_format(m_values[i]) : tr("n/a");
        QToolTip::showText(help->globalPos(),
                           QStringLiteral("%1 = %2\n%3 = %4\n%5")
                               .arg(m_rowTitle, row < m_rowLabels.size() ? m_rowLabels[row] : QString(),
                                    m_columnTitle,
                                    col < m_columnLabels.size() ? m_columnLabels[col] : QString(), value),
                           this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace ctwin::views
