#pragma once
#include <QTableWidget>

#include "evaluate.h"

namespace ctwin::views {

/// The headline figures of an evaluation as a table (label, value, unit); the tooltip of each value shows
/// its provenance (formula, inputs, sources). Design rules follow the figures.
class ResultsPanel : public QTableWidget {
    Q_OBJECT
public:
    explicit ResultsPanel(QWidget* parent = nullptr);
    void showResults(const cost::Results& results);
};

} // namespace ctwin::views
