#pragma once
#include <QList>
#include <QString>

class QMainWindow;
class QWidget;

namespace ctwin::app {

/// Help > Manual: the user manual (resources/manual.md, compiled into the app as :/manual/manual.md and
/// installed as share/doc/clustertwin/manual.md) in a QTextBrowser dialog.
void showManual(QWidget* parent);
/// The manual's Markdown text (empty when the resource is missing).
QString manualMarkdown();

/// One row of Help > Keyboard shortcuts.
struct ShortcutRow {
    QString where;  // "File", "Edit", "Analysis", or "Floor plan" for actions outside the menus
    QString action; // menu text without mnemonics ("Save as...")
    QString keys;   // native text, several sequences joined with ", "
};
/// Every action of the window that has a shortcut, from its menus first (with the menu's name), then the
/// window's other actions; generated from the QActions themselves so the table cannot drift from them.
QList<ShortcutRow> shortcutRows(const QMainWindow* window);
/// Help > Keyboard shortcuts: shortcutRows in a table dialog.
void showShortcuts(QMainWindow* window);

} // namespace ctwin::app
