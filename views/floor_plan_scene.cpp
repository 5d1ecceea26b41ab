#include "floor_plan_scene.h"

#include "cdu_item.h"
#include "design_json.h"
#include "outline_item.h"
#include "rack_item.h"

#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMimeData>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

const char* const kCatalogMime = "application/x-ctwin-catalog-item";

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// Distinct, print-friendly colours (Tableau 10) for rack types and loops.
const QColor kCategorical[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
                               QColor(0x76, 0xb7, 0xb2), QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                               QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
                               QColor(0xba, 0xb0, 0xac)};
constexpr int kCategoricalCount = sizeof(kCategorical) / sizeof(kCategorical[0]);

/// Power density ramp over kW per rack: blue (air-cooled, ~20 kW) through green and yellow to red (200 kW+).
QColor densityColor(double kw) {
    const double t = std::clamp(kw / 200.0, 0.0, 1.0);
    return QColor::fromHsvF((1.0 - t) * 0.66, 0.75, 0.9);
}

double catalogValue(const model::Catalog& c, const std::string& id, const char* field, double fallback) {
    if (const auto* item = c.find(id))
        if (const auto* v = item->find(field)) return v->base;
    return fallback;
}

} // namespace

FloorPlanScene::FloorPlanScene(const model::Catalog& catalog, QObject* parent)
    : QGraphicsScene(parent), m_catalog(catalog) {
    connect(this, &QGraphicsScene::selectionChanged, this, &FloorPlanScene::onSelectionChanged);
    setItemIndexMethod(BspTreeIndex);
}

FloorPlanScene::~FloorPlanScene() {
    // QGraphicsScene's destructor deletes the items and emits selectionChanged into this half-destroyed
    // object; delete them while it is still whole, and silently.
    m_syncing = true;
    blockSignals(true);
    clear();
}

void FloorPlanScene::setDark(bool dark) {
    m_dark = dark;
    setBackgroundBrush(dark ? QColor(0x20, 0x22, 0x26) : QColor(0xf4, 0xf4, 0xf0));
}

void FloorPlanScene::showProject(const model::Project& p) {
    const QStringList selected = selectedIds();
    rebuild(p);
    m_syncing = true;
    selectIds(selected);
    m_syncing = false;
}

QRectF FloorPlanScene::rackFootprint(const std::string& rackType, double rotationDeg) const {
    const double w = catalogValue(m_catalog, rackType, "width_m", 0.6);
    const double d = catalogValue(m_catalog, rackType, "depth_m", 1.2);
    const bool sideways = (((static_cast<int>(std::lround(rotationDeg / 90.0)) % 2) + 2) % 2) == 1;
    return sideways ? QRectF(0, 0, d, w) : QRectF(0, 0, w, d);
}

void FloorPlanScene::rebuild(const model::Project& p) {
    m_syncing = true;
    clear();
    m_drawItem = nullptr; // went with clear(); drawing mode stays on
    m_halls.clear();
    m_buildingItems.clear();
    m_buildingOrigins.clear();
    m_buildingRects.clear();
    m_rowHall.clear();
    m_loopIndex.clear();
    m_rackLoop.clear();
    m_rackType.clear();
    m_rackTypeCount.clear();
    m_racks.clear();
    m_cdus.clear();
    syncOutlines(p);
    syncCdus(p);
    for (const auto& r : p.racks)
        updateRack(r);
    recolor();
    updateSceneRect();
    m_syncing = false;
}

QSet<QString> FloorPlanScene::syncOutlines(const model::Project& p) {
    // Reconciles the outlines with the project: what is laid out the same keeps its item untouched (no
    // repaint), changed ones are updated in place, new ones created, gone ones deleted. A few hundred
    // entities at most, so this walks them all; a fresh build is the same walk over an empty scene.
    m_buildingOrigins.clear();
    m_buildingRects.clear();
    m_rowHall.clear();
    m_siteStrips.clear();

    const QColor buildingFill = m_dark ? QColor(0x33, 0x36, 0x3c) : QColor(0xe2, 0xe0, 0xda);
    const QColor hallFill = m_dark ? QColor(0x2a, 0x2d, 0x33) : QColor(0xfb, 0xfb, 0xf8);
    // Sites have no common frame (their buildings are placed in each campus' own metres), so they are laid
    // out side by side, 100 m apart.
    QSet<QString> buildingsShown;
    double siteX = 0.0;
    for (const auto& s : p.sites) {
        double minX = 0, maxX = 0;
        bool any = false;
        for (const auto& b : p.buildings) {
            if (b.site != s.id) continue;
            const double x0 = b.x.value(), x1 = b.x.value() + std::max(b.width.value(), 10.0);
            minX = any ? std::min(minX, x0) : x0;
            maxX = any ? std::max(maxX, x1) : x1;
            any = true;
        }
        for (const auto& b : p.buildings) {
            if (b.site != s.id) continue;
            const QString id = qs(b.id);
            const QPointF origin(siteX - minX + b.x.value(), b.y.value());
            m_buildingOrigins.insert(id, origin);
            const QRectF r(origin, QSizeF(b.width.value(), b.depth.value()));
            m_buildingRects.insert(id, r);
            const QString title = qs(b.name.empty() ? b.id : b.name);
            if (OutlineItem* item = m_buildingItems.value(id)) {
                item->setRect(r);
                item->setTitle(title);
                item->setFill(buildingFill);
            } else {
                item = new OutlineItem(id, r, title, buildingFill);
                item->setZValue(-2);
                addItem(item);
                m_buildingItems.insert(id, item);
            }
            buildingsShown.insert(id);
        }
        m_siteStrips.push_back({qs(s.id), siteX, siteX + (maxX - minX), siteX - minX});
        siteX += (maxX - minX) + 100.0;
    }
    for (auto it = m_buildingItems.begin(); it != m_buildingItems.end();)
        if (!buildingsShown.contains(it.key())) {
            delete it.value();
            it = m_buildingItems.erase(it);
        } else {
            ++it;
        }

    QSet<QString> moved, hallsShown;
    for (const auto& h : p.halls) {
        const QString id = qs(h.id);
        const QPointF origin = m_buildingOrigins.value(qs(h.building)) + QPointF(h.x.value(), h.y.value());
        const QRectF rect(origin, QSizeF(h.width.value(), h.depth.value()));
        const QString title = qs(h.name.empty() ? h.id : h.name);
        auto hall = m_halls.find(id);
        if (hall == m_halls.end()) {
            Hall fresh;
            fresh.item = new OutlineItem(id, rect, title, hallFill, h.grid.value());
            fresh.item->setZValue(-1);
            addItem(fresh.item);
            hall = m_halls.insert(id, fresh);
        } else {
            if (hall->origin != origin) moved.insert(id);
            hall->item->setRect(rect);
            hall->item->setTitle(title);
            hall->item->setFill(hallFill);
            hall->item->setGrid(h.grid.value());
        }
        hall->origin = origin;
        hall->rect = rect;
        hall->grid = h.grid.value();
        hallsShown.insert(id);
    }
    for (auto it = m_halls.begin(); it != m_halls.end();)
        if (!hallsShown.contains(it.key())) {
            delete it->item;
            it = m_halls.erase(it);
        } else {
            ++it;
        }
    QHash<QString, std::vector<OutlineItem::RowLabel>> labels;
    for (const auto& r : p.rows) {
        m_rowHall.insert(qs(r.id), qs(r.hall));
        const auto it = m_halls.constFind(qs(r.hall));
        if (it != m_halls.constEnd())
            labels[it.key()].push_back(
                {it->origin + QPointF(r.x.value(), r.y.value()), qs(r.name.empty() ? r.id : r.name)});
    }
    for (auto it = m_halls.begin(); it != m_halls.end(); ++it)
        it->item->setRowLabels(labels.value(it.key()));
    return moved;
}

bool FloorPlanScene::syncCdus(const model::Project& p) {
    // Reconciled like the outlines: a loop added or edited in one hall leaves every other CDU alone.
    m_loopIndex.clear();
    int loopNo = 0;
    const QColor cdu = m_dark ? QColor(0x3f, 0xa7, 0xd6) : QColor(0x1f, 0x77, 0xb4);
    QSet<QString> shown;
    for (const auto& l : p.coolingLoops) {
        const QString loopId = qs(l.id);
        m_loopIndex.insert(loopId, loopNo++);
        const auto hall = m_halls.constFind(qs(l.hall));
        if (hall == m_halls.constEnd()) continue;
        const QRectF fp(0, 0, catalogValue(m_catalog, l.cduType, "width_m", 1.2),
                        catalogValue(m_catalog, l.cduType, "depth_m", 1.2));
        for (size_t i = 0; i < l.cdus.size(); ++i) {
            const QString id = CduItem::itemId(loopId, static_cast<int>(i));
            FloorItem* item = m_cdus.value(id);
            if (item && item->hallId() != hall.key()) { // the loop moved to another hall
                delete item;
                item = nullptr;
            }
            if (!item) {
                item = new CduItem(loopId, static_cast<int>(i), hall.key(), fp);
                item->setLabel(loopId);
                addItem(item);
                m_cdus.insert(id, item);
            }
            item->setFootprint(fp);
            item->setPos(hall->origin + QPointF(l.cdus[i].xM, l.cdus[i].yM));
            item->setBrushColor(cdu);
            shown.insert(id);
        }
    }
    bool selectedGone = false;
    for (auto it = m_cdus.begin(); it != m_cdus.end();)
        if (!shown.contains(it.key())) {
            selectedGone |= it.value()->isSelected();
            delete it.value();
            it = m_cdus.erase(it);
        } else {
            ++it;
        }
    return selectedGone;
}

void FloorPlanScene::updateSceneRect() {
    // Racks and CDUs stand in halls, halls in buildings: the outlines bound the plan (no walk over every
    // rack item, which itemsBoundingRect would do).
    QRectF bounds;
    for (const QRectF& r : std::as_const(m_buildingRects))
        bounds |= r;
    for (const Hall& h : std::as_const(m_halls))
        bounds |= h.rect;
    if (bounds.isNull()) bounds = itemsBoundingRect();
    setSceneRect(bounds.adjusted(-50, -50, 50, 50));
}

bool FloorPlanScene::updateRack(const model::RackPlacement& r) {
    const QString id = qs(r.id);
    const QString hallId = m_rowHall.value(qs(r.row));
    const QRectF fp = rackFootprint(r.rackType, r.rotationDeg);
    RackItem* item = m_racks.value(id);
    bool selectionTouched = false;
    if (item && item->hallId() != hallId) { // its row went to another hall: the item belongs to a hall
        selectionTouched = item->isSelected();
        m_racks.remove(id);
        delete item;
        item = nullptr;
    }
    if (!item) {
        item = new RackItem(id, hallId, fp);
        addItem(item);
        m_racks.insert(id, item);
    }
    item->setFootprint(fp);
    item->setRotation(r.rotationDeg);
    item->setSpare(r.spare);
    item->setRowId(qs(r.row));
    item->setLabel(qs(r.name));
    item->setToolTip(QStringLiteral("%1 (%2)%3")
                         .arg(qs(r.name.empty() ? r.id : r.name), qs(r.rackType),
                              r.spare ? tr(", hot spare") : QString()));
    const auto hall = m_halls.constFind(hallId);
    const QPointF origin = hall == m_halls.constEnd() ? QPointF() : hall->origin;
    item->setPos(origin + QPointF(r.x.value(), r.y.value()));
    m_rackLoop.insert(id, qs(r.coolingLoop));
    setRackType(id, qs(r.rackType));
    item->setBrushColor(rackColor(qs(r.rackType), qs(r.coolingLoop)));
    return selectionTouched;
}

void FloorPlanScene::applyChanges(const model::Project& p, const model::ChangeSet& changes) {
    using K = model::EntityKind;
    const auto anyChange = [&](const auto& pred) {
        return std::any_of(changes.entities.begin(), changes.entities.end(), pred);
    };
    const auto changed = [](const model::EntityChange& c, std::initializer_list<const char*> props) {
        return std::any_of(c.properties.begin(), c.properties.end(), [&](const std::string& prop) {
            return std::find(props.begin(), props.end(), prop) != props.end();
        });
    };
    // What the plan draws of each kind; feeds, fabrics, storage, links, workloads and other attributes (a
    // tariff, a job size, a site's name) are not drawn, and edits of them leave the plan alone.
    const bool layout = anyChange([&](const model::EntityChange& c) {
        if (c.type != model::ChangeType::Modified)
            return c.kind == K::Site || c.kind == K::Building || c.kind == K::DataHall || c.kind == K::Row;
        switch (c.kind) {
        case K::Building:
            return changed(c, {"name", "site", "x_m", "y_m", "width_m", "depth_m"});
        case K::DataHall:
            return changed(c, {"name", "building", "x_m", "y_m", "width_m", "depth_m", "grid_m"});
        case K::Row:
            return changed(c, {"name", "hall", "x_m", "y_m"});
        case K::Site:
        case K::PowerFeed:
        case K::CoolingLoop: // loops and racks are reconciled below
        case K::RackPlacement:
        case K::Fabric:
        case K::StorageTier:
        case K::ScaleAcrossLink:
        case K::TrainingJob:
        case K::InferenceService:
            return false;
        }
        return false;
    });
    const bool loops = anyChange([](const model::EntityChange& c) { return c.kind == K::CoolingLoop; });
    const bool racks = anyChange([](const model::EntityChange& c) { return c.kind == K::RackPlacement; });
    if (!layout && !loops && !racks) return;
    // In place (authoring on a 5,000-rack campus must not redraw every rack): removed racks go, outlines
    // and CDUs are reconciled with the project (only items that differ change, so only their area
    // repaints), added or changed racks update their own items, racks of a hall that moved follow it.
    m_syncing = true;
    bool selectionTouched = false;
    for (const auto& c : changes.entities) {
        if (c.kind != K::RackPlacement || c.type != model::ChangeType::Removed) continue;
        const QString id = qs(c.id);
        if (RackItem* item = m_racks.take(id)) {
            selectionTouched |= item->isSelected();
            delete item;
        }
        m_rackLoop.remove(id);
        forgetRackType(id);
    }
    QSet<QString> movedHalls;
    if (layout) movedHalls = syncOutlines(p);
    if (layout || loops) selectionTouched |= syncCdus(p);
    for (const auto& c : changes.entities)
        if (c.kind == K::RackPlacement && c.type != model::ChangeType::Removed)
            selectionTouched |= updateRack(model::entityFromJson<model::RackPlacement>(c.after, ""));
    // Racks follow their hall (moved) or their row (to another hall).
    QSet<QString> rehomedRows;
    for (const auto& c : changes.entities)
        if (c.kind == K::Row && c.type == model::ChangeType::Modified && changed(c, {"hall"}))
            rehomedRows.insert(qs(c.id));
    if (!movedHalls.isEmpty() || !rehomedRows.isEmpty())
        for (const auto& r : p.racks)
            if (rehomedRows.contains(qs(r.row)) || movedHalls.contains(m_rowHall.value(qs(r.row))))
                selectionTouched |= updateRack(r);
    if (loops && m_colorMode == ColorMode::CoolingLoop) recolor(); // loop colours follow the loop order
    if (layout) updateSceneRect();
    m_syncing = false;
    if (selectionTouched) emit selectionChangedByUser(selectedIds());
}

QColor FloorPlanScene::rackColor(const QString& rackType, const QString& loop) const {
    switch (m_colorMode) {
    case ColorMode::PowerDensity:
        return densityColor(catalogValue(m_catalog, rackType.toStdString(), "power_load_w", 0.0) / 1e3);
    case ColorMode::CoolingLoop: {
        if (loop.isEmpty()) return QColor(0x9a, 0x9a, 0x9a);
        return kCategorical[m_loopIndex.value(loop) % kCategoricalCount];
    }
    case ColorMode::RackType:
        break;
    }
    const auto racks = m_catalog.byCategory("racks");
    for (size_t i = 0; i < racks.size(); ++i)
        if (qs(racks[i]->id) == rackType) return kCategorical[i % kCategoricalCount];
    return Qt::gray;
}

void FloorPlanScene::recolor() {
    for (auto it = m_racks.cbegin(); it != m_racks.cend(); ++it)
        it.value()->setBrushColor(rackColor(m_rackType.value(it.key()), m_rackLoop.value(it.key())));
    const QColor cdu = m_dark ? QColor(0x3f, 0xa7, 0xd6) : QColor(0x1f, 0x77, 0xb4);
    for (auto* c : std::as_const(m_cdus))
        c->setBrushColor(cdu);
}

void FloorPlanScene::setColorMode(ColorMode mode) {
    m_colorMode = mode;
    recolor();
}

void FloorPlanScene::setRackType(const QString& id, const QString& type) {
    const auto it = m_rackType.find(id);
    if (it != m_rackType.end()) {
        if (*it == type) return;
        if (--m_rackTypeCount[*it] == 0) m_rackTypeCount.remove(*it);
        *it = type;
    } else {
        m_rackType.insert(id, type);
    }
    ++m_rackTypeCount[type];
}

void FloorPlanScene::forgetRackType(const QString& id) {
    const auto it = m_rackType.find(id);
    if (it == m_rackType.end()) return;
    if (--m_rackTypeCount[*it] == 0) m_rackTypeCount.remove(*it);
    m_rackType.erase(it);
}

std::vector<FloorPlanScene::LegendEntry> FloorPlanScene::legend() const {
    std::vector<LegendEntry> out;
    switch (m_colorMode) {
    case ColorMode::PowerDensity:
        for (double kw : {20.0, 50.0, 100.0, 150.0, 200.0})
            out.push_back({densityColor(kw), QStringLiteral("%1 kW").arg(kw, 0, 'f', 0)});
        break;
    case ColorMode::CoolingLoop: {
        out.push_back({QColor(0x9a, 0x9a, 0x9a), tr("air")});
        std::vector<std::pair<int, QString>> loops;
        for (auto it = m_loopIndex.cbegin(); it != m_loopIndex.cend(); ++it)
            loops.emplace_back(it.value(), it.key());
        std::sort(loops.begin(), loops.end());
        for (const auto& [i, id] : loops) {
            if (out.size() > 12) break;
            out.push_back({kCategorical[i % kCategoricalCount], id});
        }
        break;
    }
    case ColorMode::RackType: {
        const auto racks = m_catalog.byCategory("racks");
        for (size_t i = 0; i < racks.size(); ++i)
            if (m_rackTypeCount.value(qs(racks[i]->id)) > 0)
                out.push_back({kCategorical[i % kCategoricalCount], qs(racks[i]->name)});
        break;
    }
    }
    return out;
}

QStringList FloorPlanScene::selectedIds() const {
    QStringList ids;
    for (QGraphicsItem* item : selectedItems())
        if (auto* f = dynamic_cast<FloorItem*>(item)) ids << f->entityId();
    return ids;
}

QRectF FloorPlanScene::selectIds(const QStringList& ids) {
    const bool wasSyncing = m_syncing;
    m_syncing = true;
    clearSelection();
    QRectF bounds;
    for (const QString& id : ids) {
        FloorItem* item = m_racks.value(id);
        if (!item) item = m_cdus.value(id);
        if (!item) continue;
        item->setSelected(true);
        bounds |= item->sceneBoundingRect();
    }
    // A selected hall or building shows as such on the plan (issue 36: it had no highlight).
    const QColor highlight = QGuiApplication::palette().color(QPalette::Highlight);
    for (auto it = m_halls.begin(); it != m_halls.end(); ++it)
        if (it->item) it->item->setHighlighted(ids.contains(it.key()), highlight);
    for (auto it = m_buildingItems.begin(); it != m_buildingItems.end(); ++it)
        if (it.value()) it.value()->setHighlighted(ids.contains(it.key()), highlight);
    m_syncing = wasSyncing;
    return bounds;
}

QRectF FloorPlanScene::entityRect(const QString& id) const {
    if (auto* r = m_racks.value(id)) return r->sceneBoundingRect();
    if (auto* c = m_cdus.value(id)) return c->sceneBoundingRect();
    if (m_halls.contains(id)) return m_halls.value(id).rect;
    if (m_buildingRects.contains(id)) return m_buildingRects.value(id);
    QRectF bounds;
    for (auto* r : m_racks)
        if (r->rowId() == id || m_rackLoop.value(r->entityId()) == id) bounds |= r->sceneBoundingRect();
    for (auto* c : m_cdus)
        if (static_cast<CduItem*>(c)->loopId() == id) bounds |= c->sceneBoundingRect();
    return bounds;
}

std::optional<FloorPlanScene::HallHit> FloorPlanScene::hallAt(const QPointF& scenePos) const {
    for (auto it = m_halls.cbegin(); it != m_halls.cend(); ++it)
        if (it->rect.contains(scenePos)) return HallHit{it.key(), scenePos - it->origin, it->grid};
    return std::nullopt;
}

QPointF FloorPlanScene::hallOrigin(const QString& hallId) const {
    return m_halls.value(hallId).origin;
}

QPointF FloorPlanScene::snapInHall(const QString& hallId, const QPointF& p) const {
    const double g = m_halls.value(hallId).grid;
    if (!m_snap || g <= 0.0) return p;
    return QPointF(std::round(p.x() / g) * g, std::round(p.y() / g) * g);
}

void FloorPlanScene::onSelectionChanged() {
    if (!m_syncing) emit selectionChangedByUser(selectedIds());
}

std::optional<FloorPlanScene::FrameHit> FloorPlanScene::buildingAt(const QPointF& scenePos) const {
    for (auto it = m_buildingRects.cbegin(); it != m_buildingRects.cend(); ++it)
        if (it.value().contains(scenePos)) return FrameHit{it.key(), scenePos - it.value().topLeft()};
    return std::nullopt;
}

std::optional<FloorPlanScene::FrameHit> FloorPlanScene::siteAt(const QPointF& scenePos) const {
    const SiteStrip* best = nullptr;
    double bestDistance = 0;
    for (const auto& s : m_siteStrips) {
        const double d = scenePos.x() < s.x0 ? s.x0 - scenePos.x() : std::max(0.0, scenePos.x() - s.x1);
        if (!best || d < bestDistance) best = &s, bestDistance = d;
    }
    if (!best) return std::nullopt;
    return FrameHit{best->id, QPointF(scenePos.x() - best->offset, scenePos.y())};
}

void FloorPlanScene::startDrawing(DrawKind kind) {
    cancelDrawing();
    m_drawKind = kind;
}

void FloorPlanScene::cancelDrawing() {
    delete m_drawItem;
    m_drawItem = nullptr;
    if (m_drawKind == DrawKind::None) return;
    m_drawKind = DrawKind::None;
    emit drawingEnded();
}

void FloorPlanScene::keyPressEvent(QKeyEvent* event) {
    if (m_drawKind != DrawKind::None && event->key() == Qt::Key_Escape) {
        cancelDrawing();
        event->accept();
        return;
    }
    QGraphicsScene::keyPressEvent(event);
}

void FloorPlanScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    if (m_drawKind != DrawKind::None) {
        if (event->button() != Qt::LeftButton) return cancelDrawing();
        m_drawStart = event->scenePos();
        delete m_drawItem;
        m_drawItem =
            addRect(QRectF(m_drawStart, QSizeF()), QPen(m_dark ? Qt::white : Qt::black, 0, Qt::DashLine),
                    QColor(0x4e, 0x79, 0xa7, 60));
        m_drawItem->setZValue(10);
        event->accept();
        return;
    }
    QGraphicsScene::mousePressEvent(event);
    if (event->button() != Qt::LeftButton) return;
    m_dragging = false;
    for (QGraphicsItem* item : selectedItems())
        if (auto* f = dynamic_cast<FloorItem*>(item)) {
            f->beginDrag(m_snap ? m_halls.value(f->hallId()).grid : 0.0);
            m_dragging = true;
        }
}

void FloorPlanScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event) {
    m_lastMouse = event->scenePos();
    if (m_drawItem) {
        m_drawItem->setRect(QRectF(m_drawStart, event->scenePos()).normalized());
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
}

void FloorPlanScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event) {
    if (m_drawItem) {
        const QRectF r = QRectF(m_drawStart, event->scenePos()).normalized();
        const DrawKind kind = m_drawKind;
        cancelDrawing();
        if (r.width() >= 1.0 && r.height() >= 1.0) emit rectangleDrawn(kind, r);
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    if (!m_dragging || event->button() != Qt::LeftButton) return;
    m_dragging = false;
    QList<FloorMove> moves;
    for (QGraphicsItem* item : selectedItems()) {
        auto* f = dynamic_cast<FloorItem*>(item);
        if (!f) continue;
        f->endDrag();
        if (f->pos() == f->dragStart()) continue;
        // A rack dropped into another hall moves there; anything else stays in its hall's frame.
        QString hall = f->hallId();
        if (f->type() == RackItem::Type)
            if (const auto hit = hallAt(f->sceneBoundingRect().center())) hall = hit->hallId;
        moves.push_back(FloorMove{f->entityId(), hall, f->pos() - m_halls.value(hall).origin});
    }
    if (!moves.isEmpty()) emit itemsMoved(moves);
}

void FloorPlanScene::dragEnterEvent(QGraphicsSceneDragDropEvent* event) {
    event->setAccepted(event->mimeData()->hasFormat(kCatalogMime));
}

void FloorPlanScene::dragMoveEvent(QGraphicsSceneDragDropEvent* event) {
    event->setAccepted(event->mimeData()->hasFormat(kCatalogMime) && hallAt(event->scenePos()).has_value());
}

void FloorPlanScene::dropEvent(QGraphicsSceneDragDropEvent* event) {
    const auto hit = hallAt(event->scenePos());
    if (!hit || !event->mimeData()->hasFormat(kCatalogMime)) {
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    const QString id = QString::fromUtf8(event->mimeData()->data(kCatalogMime));
    emit catalogItemDropped(id, hit->hallId, snapInHall(hit->hallId, hit->hallPos));
}

void FloorPlanScene::contextMenuEvent(QGraphicsSceneContextMenuEvent* event) {
    m_lastMouse = event->scenePos();
    if (auto* f = dynamic_cast<FloorItem*>(itemAt(event->scenePos(), QTransform())); f && !f->isSelected()) {
        clearSelection();
        f->setSelected(true);
    }
    emit contextMenuRequested(event->screenPos(), selectedIds());
}

void FloorPlanScene::setUnenergisedHalls(const QHash<QString, QString>& halls) {
    if (halls == m_unenergised) return;
    m_unenergised = halls;
    invalidate(sceneRect(), QGraphicsScene::ForegroundLayer);
}

void FloorPlanScene::drawForeground(QPainter* painter, const QRectF& rect) {
    const qreal lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    // Halls not yet energised at the Timeline's date cursor: a veil in the window colour over the hall and
    // its racks, hatched, with the month it energises.
    for (auto it = m_unenergised.cbegin(); it != m_unenergised.cend(); ++it) {
        const auto hall = m_halls.constFind(it.key());
        if (hall == m_halls.cend() || !hall->rect.intersects(rect)) continue;
        QColor veil = m_dark ? QColor(0x1e, 0x20, 0x24) : QColor(0xf4, 0xf4, 0xf1);
        veil.setAlpha(200);
        painter->save();
        painter->setPen(Qt::NoPen);
        painter->setBrush(veil);
        painter->drawRect(hall->rect);
        QColor hatch = m_dark ? QColor(0x8a, 0x8f, 0x98) : QColor(0x9a, 0x9a, 0x94);
        painter->setBrush(QBrush(hatch, Qt::BDiagPattern));
        painter->drawRect(hall->rect);
        if (lod > 0.4) {
            QFont f = painter->font();
            // Two lines, "energises" over "2029-07" (9 characters of ~0.6 em at 96 dpi, 1.33 px a point):
            // fit the hall's width and a third of its depth.
            f.setPointSizeF(
                std::clamp(std::min(hall->rect.height() / 6.0, hall->rect.width() / 9.0), 0.5, 6.0));
            painter->setFont(f);
            painter->setPen(m_dark ? QColor(0xd8, 0xdc, 0xe2) : QColor(0x44, 0x44, 0x40));
            painter->drawText(hall->rect, Qt::AlignCenter,
                              tr("energises\n%1").arg(it.value().isEmpty() ? tr("later") : it.value()));
        }
        painter->restore();
    }
    for (const Hall& hall : std::as_const(m_halls))
        if (hall.item && hall.rect.intersects(rect)) hall.item->paintTitle(painter, lod);
}

} // namespace ctwin::views
