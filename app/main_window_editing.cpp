// MainWindow's editing commands on the selection: copy, paste, fill row, delete, and the context menus of
// the plan and the tree (split from main_window.cpp to keep it under the house's 1,000-line bar).
#include "catalog_palette.h"
#include "design_json.h"
#include "floor_plan_scene.h"
#include "floor_plan_view.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/document_editor.h"
#include "gui/message_bar.h"
#include "json_fast_parse.h"
#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <algorithm>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;

namespace {

const char* const kClipboardMime = "application/x-ctwin-racks+json";

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

// --- editing commands ------------------------------------------------------------------------------------

void MainWindow::deleteSelection() {
    m_authoring->deleteWithConfirmation(m_selection);
}

QString MainWindow::entityInView() const {
    const QPointF centre = m_floor->mapToScene(m_floor->viewport()->rect().center());
    if (const auto hall = m_scene->hallAt(centre)) return hall->hallId;
    if (const auto building = m_scene->buildingAt(centre)) return building->id;
    return {};
}

void MainWindow::revealLastChange() {
    if (m_tabs->currentIndex() != 0) return; // the plan is not in view
    QRectF changed;
    for (const QString& id : std::as_const(m_lastChanged))
        changed |= m_scene->entityRect(id);
    const QRectF visible = m_floor->mapToScene(m_floor->viewport()->rect()).boundingRect();
    if (!changed.isNull()) {
        if (!visible.intersects(changed)) m_floor->reveal(changed);
        return;
    }
    // What changed is gone from the plan (an add undone): keep the view on something.
    if (m_scene->items(visible).isEmpty()) m_floor->fitAll();
}

void MainWindow::copySelection() {
    const ojson clip = m_editor->copy(selectedRacks());
    if (clip.is_null()) return;
    auto* mime = new QMimeData;
    const QByteArray text = QByteArray::fromStdString(clip.dump(2));
    mime->setData(kClipboardMime, text);
    mime->setText(QString::fromUtf8(text));
    QApplication::clipboard()->setMimeData(mime);
    statusBar()->showMessage(tr("Copied %n racks", nullptr, static_cast<int>(clip["racks"].size())), 2000);
}

namespace {
QString hallNameIn(const model::Project& p, const QString& id) {
    for (const auto& h : p.halls)
        if (qs(h.id) == id) return qs(h.name.empty() ? h.id : h.name);
    return id;
}
} // namespace

void MainWindow::pasteClipboard() {
    const auto hallName = [this](const QString& id) { return hallNameIn(m_document.project(), id); };
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    if (!mime) return;
    const QByteArray data =
        mime->hasFormat(kClipboardMime) ? mime->data(kClipboardMime) : mime->text().toUtf8();
    ojson clip(ojson::value_t::discarded); // not JSON: paste reports it
    try {
        clip = model::parseJson(data.toStdString());
    } catch (const nlohmann::json::exception&) {
    }
    // Paste where the mouse last was on the plan; otherwise just below the copied racks.
    QString hall;
    QPointF anchor;
    bool atMouse = false;
    if (const auto hit = m_scene->hallAt(m_scene->lastMousePos())) {
        atMouse = true;
        hall = hit->hallId;
        anchor = m_scene->snapInHall(hall, hit->hallPos);
    } else if (clip.is_object() && clip.contains("racks") && !clip["racks"].empty()) {
        hall = qs(clip.value("hall", ""));
        double minX = 1e300, maxY = -1e300;
        for (const auto& r : clip["racks"])
            minX = std::min(minX, r.value("x_m", 0.0)), maxY = std::max(maxY, r.value("y_m", 0.0));
        anchor = QPointF(minX, maxY + 3.0);
    }
    QStringList added;
    const QString error = m_editor->paste(clip, hall, anchor, &added);
    if (!error.isEmpty()) {
        // In view, not only in the status bar that few read; the status line goes, so that no
        // older message stands beside this one.
        statusBar()->clearMessage();
        m_messageBar->showMessage(tr("<b>Nothing pasted.</b> %1").arg(error.toHtmlEscaped()),
                                  MessageBar::Level::Warning, {}, 15000);
        return;
    }
    // A refusal still shown belongs to an earlier paste.
    if (m_messageBar->level() == MessageBar::Level::Warning) m_messageBar->dismiss();
    select(added);
    statusBar()->showMessage(
        atMouse ? tr("Pasted %n racks at the mouse position in %1", nullptr, static_cast<int>(added.size()))
                      .arg(hallName(hall))
                : tr("Pasted %n racks below the copied ones", nullptr, static_cast<int>(added.size())),
        4000);
}

void MainWindow::fillRow() {
    QString row;
    const auto& p = m_document.project();
    for (const QString& id : std::as_const(m_selection)) {
        const auto slot = m_document.index().find(id.toStdString());
        if (!slot) continue;
        if (slot->kind == model::EntityKind::Row) row = id;
        if (slot->kind == model::EntityKind::RackPlacement) row = qs(p.racks[slot->index].row);
        if (!row.isEmpty()) break;
    }
    int added = 0;
    const QString error = m_editor->fillRow(row, m_palette->currentRackType(), &added);
    if (!error.isEmpty())
        report(tr("Cannot fill the row: %1").arg(error));
    else
        statusBar()->showMessage(tr("Added %n racks", nullptr, added), 3000);
}

void MainWindow::showPlanMenu(const QPoint& screenPos, const QStringList& ids) {
    QMenu menu(this);
    const QStringList racks = selectedRacks();
    if (!racks.isEmpty()) {
        const QString hall = hallOfSelection();
        std::string building;
        for (const auto& h : m_document.project().halls)
            if (qs(h.id) == hall) building = h.building;
        auto* loops = menu.addMenu(tr("Cooling loop"));
        loops->addAction(tr("(air-cooled)"), this, [this, racks] {
            report(m_editor->setProperty(racks, QStringLiteral("cooling_loop"), "", false));
        });
        for (const auto& l : m_document.project().coolingLoops)
            if (qs(l.hall) == hall)
                loops->addAction(qs(l.name.empty() ? l.id : l.name), this, [this, racks, id = l.id] {
                    report(m_editor->setProperty(racks, QStringLiteral("cooling_loop"), id, false));
                });
        for (const char* field : {"feed_a", "feed_b"}) {
            auto* feeds =
                menu.addMenu(QString::fromLatin1(field) == QLatin1String("feed_a") ? tr("Power feed A")
                                                                                   : tr("Power feed B"));
            for (const auto& f : m_document.project().powerFeeds)
                if (f.building == building)
                    feeds->addAction(
                        qs(f.name.empty() ? f.id : f.name), this, [this, racks, id = f.id, field] {
                            report(m_editor->setProperty(racks, QString::fromLatin1(field), id, false));
                        });
        }
        menu.addSeparator();
        menu.addAction(m_rotateAction);
        menu.addAction(m_fillRowAction);
        menu.addAction(m_copyAction);
    }
    menu.addSeparator();
    m_authoring->addContextActions(&menu, ids);
    menu.addAction(m_pasteAction);
    if (!ids.isEmpty()) menu.addAction(m_deleteAction);
    menu.exec(screenPos);
}

void MainWindow::showTreeMenu(const QPoint& screenPos, const QStringList& ids) {
    if (ids != m_selection) setSelection(ids, Source::Program);
    QMenu menu(this);
    m_authoring->addContextActions(&menu, ids);
    if (!ids.isEmpty()) menu.addAction(m_deleteAction);
    menu.exec(screenPos);
}

} // namespace ctwin::app
