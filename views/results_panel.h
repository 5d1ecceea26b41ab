#pragma once
#include "display_units.h"
#include "evaluate.h"

#include <QTableWidget>

namespace ctwin::views {

/// Every figure of an evaluation as a table (label, value in display units); the tooltip of each row
/// shows its provenance (formula, inputs, sources).
class ResultsPanel : public QTableWidget {
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget* parent = nullptr);
    void setUnits(const DisplayUnits& units) { m_units = units; }
    void showResults(const cost::Results& results);

private:
    DisplayUnits m_units;
};

} // namespace ctwin::views
