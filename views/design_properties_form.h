#pragma once
#include "project_info.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ctwin::views {

/// The inspector's form for the design itself (the project tree's top item): name, description and
/// sources, one per line. Read only towards the model: an edit leaves as editRequested with the whole
/// `project` object of the interchange JSON (data/FORMAT.md §3), which the app commits with
/// Transaction::setProjectInfo. Text fields commit when they lose focus (or on commitPending).
class DesignPropertiesForm : public QWidget {
    Q_OBJECT
public:
    explicit DesignPropertiesForm(QWidget* parent = nullptr);

    /// Shows these values; an editor the user is typing in keeps its text.
    void showInfo(const model::ProjectInfo& info);
    /// Commits an edited field now (Ctrl+Z with the focus in the form, closing the window).
    void commitPending();

    QLineEdit* nameEdit() const { return m_name; }
    QPlainTextEdit* descriptionEdit() const { return m_description; }
    QPlainTextEdit* sourcesEdit() const { return m_sources; }
    /// The headline TCO convention ("economic" / "accounting", item data); commits on change.
    QComboBox* tcoConventionBox() const { return m_tcoConvention; }
    /// The build start (ISO date, the time axis's origin; empty: undated); commits on editing finished.
    QLineEdit* buildStartEdit() const { return m_buildStart; }

signals:
    void editRequested(const QString& projectJson);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void commit();

    model::ProjectInfo m_info;
    QLineEdit* m_name = nullptr;
    QLabel* m_id = nullptr;
    QPlainTextEdit* m_description = nullptr;
    QPlainTextEdit* m_sources = nullptr;
    QComboBox* m_tcoConvention = nullptr;
    QLineEdit* m_buildStart = nullptr;
    bool m_filling = false;
    bool m_dirty = false;
};

} // namespace ctwin::views
