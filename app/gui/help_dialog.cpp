#include "help_dialog.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <functional>

// The manual's resource lives in the static ctwin_app library: without a reference the linker drops it.
// Q_INIT_RESOURCE declares a global function, so it is called from the global namespace.
static void initManualResource() {
    Q_INIT_RESOURCE(manual);
}

namespace ctwin::app {

namespace {

QString plain(QString text) {
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("…"), QStringLiteral("..."));
    return text;
}

QString keysOf(const QAction* a) {
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts())
        if (!k.isEmpty()) keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

QDialog* dialog(QWidget* parent, const QString& title, QWidget* body, QSize size) {
    auto* d = new QDialog(parent);
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(title);
    auto* layout = new QVBoxLayout(d);
    layout->addWidget(body, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, d);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::close);
    layout->addWidget(buttons);
    d->resize(size);
    return d;
}

} // namespace

QString manualMarkdown() {
    initManualResource();
    QFile f(QStringLiteral(":/manual/manual.md"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

void showManual(QWidget* parent) {
    auto* browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("manualBrowser"));
    browser->setOpenExternalLinks(true);
    const QString text = manualMarkdown();
    if (text.isEmpty())
        browser->setPlainText(
            QObject::tr("The manual is missing from this build (resource :/manual/manual.md)."));
    else
        browser->setMarkdown(text);
    QDialog* d = dialog(parent, QObject::tr("ClusterTwin manual"), browser, QSize(860, 900));
    d->setObjectName(QStringLiteral("manualDialog"));
    d->show();
}

QList<ShortcutRow> shortcutRows(const QMainWindow* window) {
    QList<ShortcutRow> rows;
    QSet<const QAction*> seen;
    std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu, const QString& path) {
        for (const QAction* a : menu->actions()) {
            if (a->isSeparator()) continue;
            if (a->menu()) {
                walk(a->menu(), path + QStringLiteral(" > ") + plain(a->menu()->title()));
                continue;
            }
            if (seen.contains(a)) continue;
            seen.insert(a);
            const QString keys = keysOf(a);
            if (!keys.isEmpty()) rows.append({path, plain(a->text()), keys});
        }
    };
    for (const QAction* top : window->menuBar()->actions())
        if (top->menu()) walk(top->menu(), plain(top->menu()->title()));
    // Actions with shortcuts that live outside the menus (the plan's own keys).
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (seen.contains(a) || a->isSeparator() || a->menu()) continue;
        const QString keys = keysOf(a);
        if (keys.isEmpty()) continue;
        seen.insert(a);
        rows.append({QObject::tr("Other"), plain(a->text()), keys});
    }
    return rows;
}

void showShortcuts(QMainWindow* window) {
    const QList<ShortcutRow> rows = shortcutRows(window);
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 3);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Menu"), QObject::tr("Action"), QObject::tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].where));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].action));
        table->setItem(i, 2, new QTableWidgetItem(rows[i].keys));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    QDialog* d = dialog(window, QObject::tr("Keyboard shortcuts"), table, QSize(640, 640));
    d->setObjectName(QStringLiteral("shortcutsDialog"));
    d->show();
}

} // namespace ctwin::app
