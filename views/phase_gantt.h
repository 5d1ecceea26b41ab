#pragma once
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

namespace ctwin::views {

/// The Timeline tab's Gantt: one row per phase (data hall), its facility's construction
/// draws, then its GPU cohorts from energisation to each refresh and on to the horizon, on the months of the
/// timeline. Dragging a row's bars sideways moves its energisation by whole months (snapped, clamped to the
/// timeline); on release the view asks for the new date (phaseMoveRequested) and the window makes it an
/// undoable edit of the hall's energisation_date. Left/Right move the selected phase by a month, Shift by a
/// year, Enter/double-click selects its hall. Without a build start the timeline is undated and the bars
/// cannot be dragged (the tooltip says why). A dashed line marks the date cursor.
class PhaseGantt : public QWidget {
    Q_OBJECT
public:
    /// One row: a phase and what the timeline made of it (months after the build start).
    struct Row {
        QString hall, building;
        int energisationMonth = 0;
        int constructionStart = 0; ///< first month of its facility draws (== energisation when built at once)
        std::vector<int> refreshMonths;
        bool economic = false;
    };

    explicit PhaseGantt(QWidget* parent = nullptr);

    /// The rows over a timeline of `months` months; `monthLabels` has one text per month ("2028-07" or
    /// "month 18"); `dated` says whether the months have dates (dragging needs them).
    void setRows(std::vector<Row> rows, int months, QStringList monthLabels, bool dated);
    void setCursorMonth(int month);

    const std::vector<Row>& rows() const { return m_rows; }
    /// Geometry, for tests and tooltips: the x of the start of `month` and the y of row `row`'s centre.
    double xOfMonth(double month) const;
    int rowCentreY(int row) const;
    /// The row being dragged and its month under the mouse, while a drag is under way.
    std::optional<std::pair<int, int>> dragPreview() const;
    int selectedRow() const { return m_selected; }
    /// The height that shows `rows` phases (at least one) with the month axis.
    static int heightForRows(int rows);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user dragged (or keyed) phase `hall` to start in `month` (months after the build start).
    void phaseMoveRequested(const QString& hall, int month);
    void phaseActivated(const QString& hall);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    int rowAt(int y) const;
    double monthAt(double x) const;
    int labelWidth() const;
    int clampMonth(int month) const;

    std::vector<Row> m_rows;
    int m_months = 0;
    QStringList m_labels;
    bool m_dated = false;
    int m_cursor = -1;
    int m_selected = -1;
    // A drag: its row, the month offset of the press within the bar, the month now under the mouse.
    int m_dragRow = -1;
    double m_grab = 0;
    int m_dragMonth = 0;
    bool m_dragMoved = false;
};

} // namespace ctwin::views
