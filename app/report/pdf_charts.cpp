#include "report/pdf_charts.h"

#include "report/pdf_layout.h"

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace ctwin::app {

namespace {
const QColor kInk(0x1f, 0x29, 0x37);
const QColor kMuted(0x6b, 0x72, 0x80);
const QColor kGrid(0xe1, 0xe5, 0xea);
const QColor kAxis(0x9c, 0xa3, 0xaf);

double pxPerMm(const QPainter& p) {
    return p.device()->logicalDpiX() / 25.4;
}

/// A "nice" axis step (1, 2 or 5 times a power of ten) giving about `ticks` intervals over `range`
/// (P. S. Heckbert, "Nice Numbers for Graph Labels", Graphics Gems, 1990).
double niceStep(double range, int ticks) {
    if (!(range > 0)) return 1.0;
    const double raw = range / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / magnitude;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * magnitude;
}

struct Axis {
    double lo, hi, step;
};
Axis niceAxis(double lo, double hi, int ticks) {
    if (lo == hi) hi = lo + 1;
    const double step = niceStep(hi - lo, ticks);
    return {std::floor(lo / step) * step, std::ceil(hi / step) * step, step};
}
} // namespace

QColor chartColor(size_t i) {
    static const QColor palette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                     QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                     QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                     QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
                                     QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac)};
    return palette[i % (sizeof palette / sizeof palette[0])];
}

void drawHorizontalBars(QPainter& p, const QRectF& rect, const std::vector<BarItem>& items) {
    if (items.empty()) return;
    const double u = pxPerMm(p);
    const QFont font = PdfLayout::font(7.5);
    p.setFont(font);
    const QFontMetricsF fm(font, p.device());
    double valueWidth = 0;
    for (const auto& it : items)
        valueWidth = std::max(valueWidth, fm.horizontalAdvance(it.valueText));
    const double labelWidth = rect.width() * 0.30;
    const double barLeft = rect.left() + labelWidth + 2 * u;
    const double barMax = rect.right() - barLeft - valueWidth - 3 * u;
    double maxValue = 0;
    for (const auto& it : items)
        maxValue = std::max(maxValue, it.value);
    const double row = rect.height() / static_cast<double>(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const auto& it = items[i];
        const double y = rect.top() + row * static_cast<double>(i);
        p.setPen(kInk);
        p.drawText(QRectF(rect.left(), y, labelWidth, row), Qt::AlignRight | Qt::AlignVCenter, it.label);
        const double w = maxValue > 0 ? std::max(0.0, it.value) / maxValue * barMax : 0.0;
        const QRectF bar(barLeft, y + row * 0.18, w, row * 0.64);
        p.fillRect(bar, it.color);
        p.setPen(kMuted);
        p.drawText(QRectF(bar.right() + 1.5 * u, y, valueWidth + 2 * u, row),
                   Qt::AlignLeft | Qt::AlignVCenter, it.valueText);
    }
    p.setPen(QPen(kAxis, 0.2 * u));
    p.drawLine(QPointF(barLeft, rect.top()), QPointF(barLeft, rect.bottom()));
}

void drawTornado(QPainter& p, const QRectF& rect, const std::vector<TornadoItem>& items, double base,
                 const ValueFormatter& format) {
    if (items.empty()) return;
    const double u = pxPerMm(p);
    const QFont font = PdfLayout::font(7.0);
    p.setFont(font);
    const QFontMetricsF fm(font, p.device());
    const QColor lowColor(0x4e, 0x79, 0xa7), highColor(0xf2, 0x8e, 0x2b);
    // Legend on top, axis labels at the bottom.
    const double legendH = fm.height() * 1.8, axisH = fm.height() * 2.0;
    double x = rect.left() + rect.width() * 0.36;
    for (const auto& [color, text] :
         {std::pair{lowColor, QStringLiteral("output with the assumption at its low value")},
          std::pair{highColor, QStringLiteral("at its high value")}}) {
        p.fillRect(QRectF(x, rect.top() + legendH * 0.25, 3 * u, 3 * u), color);
        p.setPen(kInk);
        p.drawText(QRectF(x + 4 * u, rect.top(), rect.width(), legendH), Qt::AlignLeft | Qt::AlignVCenter,
                   text);
        x += 6 * u + fm.horizontalAdvance(text);
    }
    double lo = base, hi = base;
    for (const auto& it : items) {
        lo = std::min({lo, it.outputAtLow, it.outputAtHigh});
        hi = std::max({hi, it.outputAtLow, it.outputAtHigh});
    }
    const Axis axis = niceAxis(lo, hi, 4);
    // Tick labels are centred on their grid lines: the plot keeps half the widest one free on the right so
    // that the last label is not cut at the chart's edge.
    double tickWidth = 0;
    for (double v = axis.lo; v <= axis.hi + axis.step * 0.5; v += axis.step)
        tickWidth = std::max(tickWidth, fm.horizontalAdvance(format(v)));
    const double labelWidth = rect.width() * 0.34;
    const QRectF plot(rect.left() + labelWidth + 2 * u, rect.top() + legendH,
                      rect.width() - labelWidth - 2 * u - std::max(2 * u, tickWidth / 2 + u),
                      rect.height() - legendH - axisH);
    auto xOf = [&](double v) { return plot.left() + (v - axis.lo) / (axis.hi - axis.lo) * plot.width(); };
    // Grid and axis labels.
    for (double v = axis.lo; v <= axis.hi + axis.step * 0.5; v += axis.step) {
        const double gx = xOf(v);
        p.setPen(QPen(kGrid, 0.15 * u));
        p.drawLine(QPointF(gx, plot.top()), QPointF(gx, plot.bottom()));
        p.setPen(kMuted);
        p.drawText(QRectF(gx - tickWidth / 2 - u, plot.bottom() + 0.5 * u, tickWidth + 2 * u, axisH),
                   Qt::AlignHCenter | Qt::AlignTop, format(v));
    }
    const double row = plot.height() / static_cast<double>(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const auto& it = items[i];
        const double y = plot.top() + row * static_cast<double>(i);
        p.setPen(kInk);
        p.drawText(QRectF(rect.left(), y, labelWidth, row),
                   Qt::AlignRight | Qt::AlignVCenter | Qt::TextWordWrap, it.label);
        for (const auto& [value, color] :
             {std::pair{it.outputAtLow, lowColor}, std::pair{it.outputAtHigh, highColor}}) {
            const double a = xOf(base), b = xOf(value);
            p.fillRect(QRectF(std::min(a, b), y + row * 0.2, std::abs(b - a), row * 0.6), color);
        }
    }
    p.setPen(QPen(kInk, 0.3 * u));
    p.drawLine(QPointF(xOf(base), plot.top()), QPointF(xOf(base), plot.bottom()));
}

void drawStackedColumns(QPainter& p, const QRectF& rect, const std::vector<QString>& columns,
                        const std::vector<QString>& series, const std::vector<std::vector<double>>& values,
                        const ValueFormatter& format) {
    if (columns.empty()) return;
    const double u = pxPerMm(p);
    const QFont font = PdfLayout::font(7.0);
    p.setFont(font);
    const QFontMetricsF fm(font, p.device());
    double legendW = 0;
    for (const auto& s : series)
        legendW = std::max(legendW, fm.horizontalAdvance(s));
    legendW += 6 * u;
    std::vector<double> totals(columns.size(), 0.0);
    for (const auto& s : values)
        for (size_t c = 0; c < columns.size() && c < s.size(); ++c)
            totals[c] += std::max(0.0, s[c]);
    const Axis axis = niceAxis(0.0, *std::max_element(totals.begin(), totals.end()), 5);
    double tickW = 0;
    for (double v = axis.lo; v <= axis.hi + axis.step * 0.5; v += axis.step)
        tickW = std::max(tickW, fm.horizontalAdvance(format(v)));
    const double labelH = fm.height() * 2.4;
    const QRectF plot(rect.left() + tickW + 2 * u, rect.top() + fm.height() * 1.5,
                      rect.width() - tickW - 2 * u - legendW - 4 * u,
                      rect.height() - fm.height() * 1.5 - labelH);
    auto yOf = [&](double v) { return plot.bottom() - (v - axis.lo) / (axis.hi - axis.lo) * plot.height(); };
    for (double v = axis.lo; v <= axis.hi + axis.step * 0.5; v += axis.step) {
        p.setPen(QPen(kGrid, 0.15 * u));
        p.drawLine(QPointF(plot.left(), yOf(v)), QPointF(plot.right(), yOf(v)));
        p.setPen(kMuted);
        p.drawText(QRectF(rect.left(), yOf(v) - fm.height() / 2, tickW, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, format(v));
    }
    const double slot = plot.width() / static_cast<double>(columns.size());
    const double barW = std::min(slot * 0.6, 25 * u);
    for (size_t c = 0; c < columns.size(); ++c) {
        const double x = plot.left() + slot * (static_cast<double>(c) + 0.5) - barW / 2;
        double acc = 0;
        for (size_t s = 0; s < values.size(); ++s) {
            const double v = c < values[s].size() ? std::max(0.0, values[s][c]) : 0.0;
            if (v <= 0) continue;
            p.fillRect(QRectF(x, yOf(acc + v), barW, yOf(acc) - yOf(acc + v)), chartColor(s));
            acc += v;
        }
        p.setPen(kInk);
        p.drawText(QRectF(x - slot / 2, yOf(acc) - fm.height() * 1.3, barW + slot, fm.height()),
                   Qt::AlignHCenter | Qt::AlignBottom, format(totals[c]));
        p.drawText(QRectF(plot.left() + slot * static_cast<double>(c), plot.bottom() + 0.8 * u, slot, labelH),
                   Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, columns[c]);
    }
    p.setPen(QPen(kAxis, 0.2 * u));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    // Legend, top series first as in the stack.
    double ly = plot.top();
    const double lx = plot.right() + 4 * u;
    for (size_t k = series.size(); k-- > 0;) {
        p.fillRect(QRectF(lx, ly + fm.height() * 0.15, 3 * u, fm.height() * 0.7), chartColor(k));
        p.setPen(kInk);
        p.drawText(QRectF(lx + 4.5 * u, ly, legendW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   series[k]);
        ly += fm.height() * 1.35;
    }
}

void drawCashFlowChart(QPainter& p, const QRectF& rect, const std::vector<double>& net,
                       const std::vector<double>& cumulative, const ValueFormatter& format) {
    if (net.empty()) return;
    const double u = pxPerMm(p);
    const QFont font = PdfLayout::font(7.0);
    p.setFont(font);
    const QFontMetricsF fm(font, p.device());
    double lo = 0, hi = 0;
    for (double v : net)
        lo = std::min(lo, v), hi = std::max(hi, v);
    for (double v : cumulative)
        lo = std::min(lo, v), hi = std::max(hi, v);
    const Axis axis = niceAxis(lo, hi, 5);
    double tickW = 0;
    for (double v = axis.lo; v <= axis.hi + axis.step * 0.5; v += axis.step)
        tickW = std::max(tickW, fm.horizontalAdvance(format(v)));
    const double legendH = fm.height() * 1.8;
    const QRectF plot(rect.left() + tickW + 2 * u, rect.top() + legendH, rect.width() - tickW - 4 * u,
                      rect.height() - legendH - fm.height() * 1.6);
    auto yOf = [&](double v) { return plot.bottom() - (v - axis.lo) / (axis.hi - axis.lo) * plot.height(); };
    for (double v = axis.lo; v <= axis.hi + axis.step * 0.5; v += axis.step) {
        p.setPen(QPen(kGrid, 0.15 * u));
        p.drawLine(QPointF(plot.left(), yOf(v)), QPointF(plot.right(), yOf(v)));
        p.setPen(kMuted);
        p.drawText(QRectF(rect.left(), yOf(v) - fm.height() / 2, tickW, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, format(v));
    }
    const QColor negative(0xe1, 0x57, 0x59), positive(0x59, 0xa1, 0x4f), line(0x1d, 0x4e, 0x89);
    const double slot = plot.width() / static_cast<double>(net.size());
    QPainterPath path;
    for (size_t y = 0; y < net.size(); ++y) {
        const double cx = plot.left() + slot * (static_cast<double>(y) + 0.5);
        const double top = yOf(std::max(0.0, net[y])), bottom = yOf(std::min(0.0, net[y]));
        const double barW = std::min(slot * 0.6, 20 * u);
        p.fillRect(QRectF(cx - barW / 2, top, barW, bottom - top), net[y] < 0 ? negative : positive);
        p.setPen(kMuted);
        p.drawText(QRectF(cx - slot / 2, plot.bottom() + 0.5 * u, slot, fm.height() * 1.4),
                   Qt::AlignHCenter | Qt::AlignTop, QStringLiteral("Year %1").arg(y));
        if (y < cumulative.size()) {
            const QPointF pt(cx, yOf(cumulative[y]));
            if (y == 0)
                path.moveTo(pt);
            else
                path.lineTo(pt);
        }
    }
    p.setPen(QPen(kAxis, 0.25 * u));
    p.drawLine(QPointF(plot.left(), yOf(0)), QPointF(plot.right(), yOf(0)));
    p.setPen(QPen(line, 0.5 * u));
    p.drawPath(path);
    p.setBrush(line);
    for (int i = 0; i < path.elementCount(); ++i)
        p.drawEllipse(QPointF(path.elementAt(i)), 0.8 * u, 0.8 * u);
    p.setBrush(Qt::NoBrush);
    // Legend.
    double x = plot.left();
    for (const auto& [color, text] : {std::pair{positive, QStringLiteral("net cash flow (in)")},
                                      std::pair{negative, QStringLiteral("net cash flow (out)")},
                                      std::pair{line, QStringLiteral("cumulative")}}) {
        p.fillRect(QRectF(x, rect.top() + legendH * 0.25, 3 * u, 3 * u), color);
        p.setPen(kInk);
        p.drawText(QRectF(x + 4 * u, rect.top(), rect.width(), legendH), Qt::AlignLeft | Qt::AlignVCenter,
                   text);
        x += 8 * u + fm.horizontalAdvance(text);
    }
}

} // namespace ctwin::app
