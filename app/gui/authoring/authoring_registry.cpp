// The one table of authoring modules: the Insert menu, the toolbar, the context menus of the project tree
// and the floor plan all walk it, so a new entity kind is one new module file and one line here.
#include "entity_authoring.h"

#include <QObject>
#include <string_view>

namespace ctwin::app {

const std::vector<std::unique_ptr<EntityAuthoring>>& authoringRegistry() {
    static const auto modules = [] {
        std::vector<std::unique_ptr<EntityAuthoring>> m;
        m.push_back(makeSiteAuthoring());
        m.push_back(makeBuildingAuthoring());
        m.push_back(makeDataHallAuthoring());
        m.push_back(makeRowAuthoring());
        m.push_back(makePowerFeedAuthoring());
        m.push_back(makeCoolingLoopAuthoring());
        m.push_back(makeFabricAuthoring());
        m.push_back(makeStorageTierAuthoring());
        m.push_back(makeScaleAcrossLinkAuthoring());
        m.push_back(makeTrainingJobAuthoring());
        m.push_back(makeInferenceServiceAuthoring());
        return m;
    }();
    return modules;
}

const EntityAuthoring* authoringFor(model::EntityKind kind) {
    for (const auto& m : authoringRegistry())
        if (m->kind() == kind) return m.get();
    return nullptr;
}

std::string uniqueId(const model::Document& doc, const std::string& base) {
    if (!doc.index().find(base)) return base;
    for (int n = 2;; ++n) {
        const std::string id = base + "-" + std::to_string(n);
        if (!doc.index().find(id)) return id;
    }
}

std::string nextName(const model::Document& doc, model::EntityKind kind, const std::string& title) {
    const size_t n = doc.project().withCollection(kind, [](const auto& c) { return c.size(); });
    return title + " " + std::to_string(n + 1);
}

namespace {

/// The entity of `kind` that `id` lies in (itself, or a parent up the site > building > hall > row > rack
/// chain); empty when none.
std::string enclosing(const model::Project& p, const model::EntityIndex& index, std::string id,
                      model::EntityKind kind) {
    using K = model::EntityKind;
    for (int guard = 0; guard < 8 && !id.empty(); ++guard) {
        const auto slot = index.find(id);
        if (!slot) return {};
        if (slot->kind == kind) return id;
        switch (slot->kind) {
        case K::RackPlacement:
            id = p.racks[slot->index].row;
            break;
        case K::Row:
            id = p.rows[slot->index].hall;
            break;
        case K::DataHall:
            id = p.halls[slot->index].building;
            break;
        case K::Building:
            id = p.buildings[slot->index].site;
            break;
        case K::CoolingLoop:
            id = p.coolingLoops[slot->index].hall;
            break;
        case K::PowerFeed:
            id = p.powerFeeds[slot->index].building;
            break;
        case K::StorageTier:
            id = p.storageTiers[slot->index].building;
            break;
        case K::Site: // the top: nothing encloses it
        case K::Fabric:
        case K::ScaleAcrossLink:
        case K::TrainingJob:
        case K::InferenceService:
            return {};
        }
    }
    return {};
}

} // namespace

namespace {

/// The first entity of `kind` inside container `id` (a site's first building or hall, a building's first
/// hall), in the design's order; empty when none.
std::string firstInside(const model::Project& p, const model::EntityIndex& index, const std::string& id,
                        model::EntityKind kind) {
    using K = model::EntityKind;
    const auto slot = index.find(id);
    if (!slot) return {};
    const auto buildingIn = [&](const std::string& b) { return enclosing(p, index, b, slot->kind) == id; };
    switch (kind) {
    case K::Building:
        for (const auto& b : p.buildings)
            if (slot->kind == K::Site && b.site == id) return b.id;
        break;
    case K::DataHall:
        for (const auto& h : p.halls)
            if ((slot->kind == K::Building || slot->kind == K::Site) && buildingIn(h.building)) return h.id;
        break;
    default:
        break;
    }
    return {};
}

std::string ofAny(const AuthoringContext& ctx, const QStringList& ids, model::EntityKind kind) {
    const auto& doc = ctx.document;
    for (const QString& id : ids) {
        // A CDU item ("<loop>#<n>") stands for its loop.
        const std::string e = id.section(QLatin1Char('#'), 0, 0).toStdString();
        std::string found = enclosing(doc.project(), doc.index(), e, kind);
        if (found.empty()) found = firstInside(doc.project(), doc.index(), e, kind);
        if (!found.empty()) return found;
    }
    return {};
}

} // namespace

std::string selectedOf(const AuthoringContext& ctx, model::EntityKind kind) {
    return ofAny(ctx, ctx.selection, kind);
}

std::string selectedOrFirst(const AuthoringContext& ctx, model::EntityKind kind) {
    std::string id = selectedOf(ctx, kind);
    if (id.empty() && !ctx.current.isEmpty()) id = ofAny(ctx, {ctx.current}, kind);
    if (id.empty())
        ctx.document.project().withCollection(kind, [&](const auto& c) {
            if (!c.empty()) id = c.front().id;
        });
    return id;
}

QStringList selectedRacks(const AuthoringContext& ctx) {
    QStringList racks;
    for (const QString& id : ctx.selection)
        if (const auto slot = ctx.document.index().find(id.toStdString());
            slot && slot->kind == model::EntityKind::RackPlacement)
            racks << id;
    return racks;
}

QString ChildAuthoring::unavailableReason(const AuthoringContext& ctx) const {
    bool none = true;
    ctx.document.project().withCollection(m_parent, [&](const auto& c) { none = c.empty(); });
    if (!none) return {};
    const EntityAuthoring* parent = authoringFor(m_parent);
    return QObject::tr("Add a %1 first.").arg(parent ? parent->title().toLower() : QString());
}

} // namespace ctwin::app
