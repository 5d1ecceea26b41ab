#include "phase_gantt.h"

#include "chart_style.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {
constexpr int kTop = 20;   // the month axis labels
constexpr int kRowH = 16;  // one phase
constexpr int kBarH = 10;  // its bars
constexpr int kRight = 10; // room after the last month
constexpr int kBottom = 4;
} // namespace

PhaseGantt::PhaseGantt(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAccessibleName(tr("Phase Gantt"));
    setToolTip(tr("Phases and GPU cohorts: drag a hall's bars sideways to move its energisation by whole "
                  "months (undoable); Left/Right move the selected hall a month, Shift a year"));
}

void PhaseGantt::setRows(std::vector<Row> rows, int months, QStringList monthLabels, bool dated) {
    const QString selectedHall =
        m_selected >= 0 && m_selected < static_cast<int>(m_rows.size()) ? m_rows[m_selected].hall : QString();
    m_rows = std::move(rows);
    m_months = std::max(0, months);
    m_labels = std::move(monthLabels);
    m_dated = dated;
    m_selected = -1;
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i)
        if (m_rows[static_cast<std::size_t>(i)].hall == selectedHall) m_selected = i;
    m_dragRow = -1;
    updateGeometry();
    update();
}

void PhaseGantt::setCursorMonth(int month) {
    if (month == m_cursor) return;
    m_cursor = month;
    update();
}

int PhaseGantt::heightForRows(int rows) {
    return kTop + kRowH * std::max(1, rows) + kBottom;
}

QSize PhaseGantt::sizeHint() const {
    return {800, heightForRows(static_cast<int>(m_rows.size()))};
}

QSize PhaseGantt::minimumSizeHint() const {
    return {300, sizeHint().height()};
}

int PhaseGantt::labelWidth() const {
    int w = 40;
    for (const auto& r : m_rows)
        w = std::max(w, fontMetrics().horizontalAdvance(r.hall) + 12);
    return std::min(w, 220);
}

double PhaseGantt::xOfMonth(double month) const {
    const double left = labelWidth();
    const double span = std::max(1.0, double(width() - kRight) - left);
    return left + (m_months > 0 ? month / m_months : 0.0) * span;
}

double PhaseGantt::monthAt(double x) const {
    const double left = labelWidth();
    const double span = std::max(1.0, double(width() - kRight) - left);
    return (x - left) / span * m_months;
}

int PhaseGantt::rowCentreY(int row) const {
    return kTop + row * kRowH + kRowH / 2;
}

int PhaseGantt::rowAt(int y) const {
    if (y < kTop) return -1;
    const int row = (y - kTop) / kRowH;
    return row < static_cast<int>(m_rows.size()) ? row : -1;
}

int PhaseGantt::clampMonth(int month) const {
    return std::clamp(month, 0, std::max(0, m_months - 1));
}

std::optional<std::pair<int, int>> PhaseGantt::dragPreview() const {
    if (m_dragRow < 0 || !m_dragMoved) return std::nullopt;
    return std::pair{m_dragRow, m_dragMonth};
}

void PhaseGantt::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (m_rows.empty() || m_months <= 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No phases"));
        return;
    }
    const int left = labelWidth();
    const int bottom = kTop + kRowH * static_cast<int>(m_rows.size());
    // Year grid and labels, spaced so that the labels do not overlap.
    const double perYear = xOfMonth(12) - xOfMonth(0);
    const int labelW = fontMetrics().horizontalAdvance(QStringLiteral("2028-07")) + 8;
    const int step = 12 * std::max(1, static_cast<int>(std::ceil(labelW / std::max(1.0, perYear))));
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(90);
    for (int m = 0; m <= m_months; m += step) {
        const int x = static_cast<int>(std::lround(xOfMonth(m)));
        p.setPen(grid);
        p.drawLine(x, kTop - 2, x, bottom);
        if (m < m_labels.size()) {
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRect(x + 2, 0, labelW, kTop - 2), Qt::AlignLeft | Qt::AlignVCenter, m_labels[m]);
        }
    }
    const QColor cohortA = categoricalColor(0), cohortB = categoricalColor(0).lighter(150);
    QColor build = pal.color(QPalette::Mid);
    build.setAlpha(150);
    for (int i = 0; i < static_cast<int>(m_rows.size()); ++i) {
        const Row& r = m_rows[static_cast<std::size_t>(i)];
        const int y0 = kTop + i * kRowH;
        if (i == m_selected) {
            QColor hl = pal.color(QPalette::Highlight);
            hl.setAlpha(50);
            p.fillRect(QRect(0, y0, width(), kRowH), hl);
        } else if (i % 2) {
            p.fillRect(QRect(0, y0, width(), kRowH), pal.color(QPalette::AlternateBase));
        }
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(4, y0, left - 8, kRowH), Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(r.hall, Qt::ElideMiddle, left - 8));
        const int shift = (i == m_dragRow && m_dragMoved) ? m_dragMonth - r.energisationMonth : 0;
        const auto bar = [&](double from, double to) {
            const int a = static_cast<int>(std::lround(xOfMonth(std::clamp(from, 0.0, double(m_months)))));
            const int b = static_cast<int>(std::lround(xOfMonth(std::clamp(to, 0.0, double(m_months)))));
            return QRect(a, y0 + (kRowH - kBarH) / 2, std::max(1, b - a), kBarH);
        };
        // Construction draws, then each cohort until the next refresh.
        if (r.constructionStart < r.energisationMonth)
            p.fillRect(bar(r.constructionStart + shift, r.energisationMonth + shift), build);
        std::vector<int> starts{r.energisationMonth};
        starts.insert(starts.end(), r.refreshMonths.begin(), r.refreshMonths.end());
        for (std::size_t k = 0; k < starts.size(); ++k) {
            const double from = starts[k] + shift;
            const double to = k + 1 < starts.size() ? starts[k + 1] + shift : double(m_months);
            p.fillRect(bar(from, to), k % 2 ? cohortB : cohortA);
        }
        if (r.economic) { // an economic refresh policy: outlined
            p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DotLine));
            p.drawRect(bar(r.energisationMonth + shift, m_months).adjusted(0, 0, -1, -1));
        }
        if (shift != 0 || (i == m_dragRow && m_dragMoved)) {
            const QString to = m_dragMonth < m_labels.size() ? m_labels[m_dragMonth] : QString();
            p.setPen(pal.color(QPalette::Text));
            const QRect b = bar(r.energisationMonth + shift, m_months);
            p.drawText(QRect(b.left() + 4, y0, 120, kRowH), Qt::AlignLeft | Qt::AlignVCenter,
                       QStringLiteral("→ %1").arg(to));
        }
    }
    if (m_cursor >= 0 && m_cursor < m_months) {
        const int x = static_cast<int>(std::lround(xOfMonth(m_cursor + 0.5)));
        p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
        p.drawLine(x, kTop - 2, x, bottom);
    }
    if (hasFocus() && m_selected >= 0) {
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.drawRect(QRect(0, kTop + m_selected * kRowH, width() - 1, kRowH - 1));
    }
}

void PhaseGantt::mousePressEvent(QMouseEvent* event) {
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (event->button() != Qt::LeftButton || row < 0) return QWidget::mousePressEvent(event);
    m_selected = row;
    update();
    const Row& r = m_rows[static_cast<std::size_t>(row)];
    const double month = monthAt(event->position().x());
    if (month < r.constructionStart || month > m_months) return; // not on the row's bars
    if (!m_dated) {
        QToolTip::showText(event->globalPosition().toPoint(),
                           tr("The timeline is undated: set the build start (Design properties) to move "
                              "phases by date"),
                           this);
        return;
    }
    m_dragRow = row;
    m_grab = month - r.energisationMonth;
    m_dragMonth = r.energisationMonth;
    m_dragMoved = false;
}

void PhaseGantt::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragRow < 0) return QWidget::mouseMoveEvent(event);
    const int month = clampMonth(static_cast<int>(std::lround(monthAt(event->position().x()) - m_grab)));
    if (month == m_dragMonth && m_dragMoved) return;
    m_dragMonth = month;
    m_dragMoved = m_dragMoved || month != m_rows[static_cast<std::size_t>(m_dragRow)].energisationMonth;
    if (m_dragMoved && month < m_labels.size())
        QToolTip::showText(
            event->globalPosition().toPoint(),
            tr("%1 energises %2").arg(m_rows[static_cast<std::size_t>(m_dragRow)].hall, m_labels[month]),
            this);
    update();
}

void PhaseGantt::mouseReleaseEvent(QMouseEvent* event) {
    if (m_dragRow < 0) return QWidget::mouseReleaseEvent(event);
    const Row r = m_rows[static_cast<std::size_t>(m_dragRow)];
    const bool moved = m_dragMoved && m_dragMonth != r.energisationMonth;
    const int month = m_dragMonth;
    m_dragRow = -1;
    m_dragMoved = false;
    update();
    if (moved) emit phaseMoveRequested(r.hall, month);
}

void PhaseGantt::mouseDoubleClickEvent(QMouseEvent* event) {
    const int row = rowAt(static_cast<int>(event->position().y()));
    if (row >= 0) emit phaseActivated(m_rows[static_cast<std::size_t>(row)].hall);
}

void PhaseGantt::keyPressEvent(QKeyEvent* event) {
    const int n = static_cast<int>(m_rows.size());
    if (event->key() == Qt::Key_Escape && m_dragRow >= 0) { // cancel a drag
        m_dragRow = -1;
        m_dragMoved = false;
        update();
        return;
    }
    if (n == 0) return QWidget::keyPressEvent(event);
    switch (event->key()) {
    case Qt::Key_Up:
    case Qt::Key_Down:
        m_selected = std::clamp(m_selected + (event->key() == Qt::Key_Up ? -1 : 1), 0, n - 1);
        update();
        return;
    case Qt::Key_Left:
    case Qt::Key_Right: {
        if (m_selected < 0 || !m_dated) break;
        const Row& r = m_rows[static_cast<std::size_t>(m_selected)];
        const int step = (event->modifiers() & Qt::ShiftModifier) ? 12 : 1;
        const int month = clampMonth(r.energisationMonth + (event->key() == Qt::Key_Left ? -step : step));
        if (month != r.energisationMonth) emit phaseMoveRequested(r.hall, month);
        return;
    }
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_selected >= 0) emit phaseActivated(m_rows[static_cast<std::size_t>(m_selected)].hall);
        return;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

bool PhaseGantt::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = rowAt(help->pos().y());
        if (row < 0) return QWidget::event(event);
        const Row& r = m_rows[static_cast<std::size_t>(row)];
        const auto label = [this](int m) { return m >= 0 && m < m_labels.size() ? m_labels[m] : QString(); };
        QStringList refresh;
        for (int m : r.refreshMonths)
            refresh << label(m);
        QString text =
            tr("<b>%1</b> (%2)<br>construction from %3, energised %4<br>GPU refresh (%5): %6")
                .arg(r.hall.toHtmlEscaped(), r.building.toHtmlEscaped(), label(r.constructionStart),
                     label(r.energisationMonth), r.economic ? tr("economic") : tr("fixed life"),
                     refresh.isEmpty() ? tr("none within the horizon") : refresh.join(", "));
        text += m_dated ? tr("<br>Drag sideways to move its energisation by months (undoable)")
                        : tr("<br>Undated: set the build start to move phases by date");
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace ctwin::views
