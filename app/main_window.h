#pragma once
#include <QMainWindow>
#include <memory>

#include "catalog.h"
#include "document.h"

namespace ctwin::views {
class ProjectTree;
class ResultsPanel;
} // namespace ctwin::views

namespace ctwin::app {

/// The desktop main window: project tree, evaluation figures with provenance, File > Open / New from
/// reference. The full editor (floor plan, inspector, undo) builds on this window.
class MainWindow : public QMainWindow, private model::DocumentListener {
    Q_OBJECT
public:
    MainWindow(model::Catalog catalog, model::AssumptionSet defaults, QWidget* parent = nullptr);
    ~MainWindow() override;
    /// Opens a design; on failure shows the reason and keeps the current document. Returns success.
    bool openFile(const QString& path);
    const model::Document& document() const { return m_document; }

private:
    void documentChanged(const model::ChangeSet& changes) override;
    void documentReset() override;
    void refresh();
    void buildMenus();

    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    model::Document m_document;
    views::ProjectTree* m_tree = nullptr;
    views::ResultsPanel* m_results = nullptr;
    QString m_path;
};

} // namespace ctwin::app
