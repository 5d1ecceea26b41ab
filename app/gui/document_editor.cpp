#include "document_editor.h"

#include "catalog.h"
#include "cdu_item.h"
#include "cdu_layout.h"
#include "design_json.h"
#include "document.h"
#include "document_command.h"
#include "entity_references.h"
#include "field_names.h"

#include <QObject>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;

namespace {

constexpr double kEps = 1e-3; // racks may touch, not overlap (1 mm)

double catalogValue(const model::Document& doc, const std::string& id, const char* field, double fallback) {
    if (!doc.catalog()) return fallback;
    if (const auto* item = doc.catalog()->find(id))
        if (const auto* v = item->find(field)) return v->base;
    return fallback;
}

bool sideways(double rotationDeg) {
    return (((static_cast<long>(std::lround(rotationDeg / 90.0)) % 2) + 2) % 2) == 1;
}

QRectF rackRect(const model::Document& doc, const std::string& type, double x, double y, double rotation) {
    const double w = catalogValue(doc, type, "width_m", 0.6), d = catalogValue(doc, type, "depth_m", 1.2);
    return sideways(rotation) ? QRectF(x, y, d, w) : QRectF(x, y, w, d);
}

QRectF cduRect(const model::Document& doc, const std::string& type, double x, double y) {
    return QRectF(x, y, catalogValue(doc, type, "width_m", 1.2), catalogValue(doc, type, "depth_m", 1.2));
}

template <class C> const typename C::value_type* findById(const C& c, const std::string& id) {
    for (const auto& e : c)
        if (e.id == id) return &e;
    return nullptr;
}

std::string hallOfRow(const model::Project& p, const std::string& row) {
    const auto* r = findById(p.rows, row);
    return r ? r->hall : std::string();
}

std::runtime_error rejected(const std::string& why) {
    return std::runtime_error(why);
}

std::string joinIds(QStringList ids) {
    ids.sort();
    return ids.join(QLatin1Char(',')).toStdString();
}

/// "12 racks", "1 rack", "3 racks and 2 CDUs": the count words of an undo label.
std::string countWords(size_t racks, size_t cdus) {
    const auto n = [](size_t k, const char* one) {
        return std::to_string(k) + " " + one + (k == 1 ? "" : "s");
    };
    if (cdus == 0) return n(racks, "rack");
    if (racks == 0) return n(cdus, "CDU");
    return n(racks, "rack") + " and " + n(cdus, "CDU");
}

} // namespace

DocumentEditor::DocumentEditor(model::Document& document, QUndoStack& stack)
    : m_doc(document), m_stack(stack) {}

QString DocumentEditor::run(const std::string& label, const std::function<void(model::Transaction&)>& edit,
                            const QString& mergeKey) {
    try {
        model::Transaction t(m_doc, label);
        edit(t);
        model::ChangeSet changes = t.commit();
        if (changes.empty()) return {};
        m_stack.push(new DocumentCommand(m_doc, std::move(changes), mergeKey));
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

std::string DocumentEditor::displayName(const QString& id) const {
    QString loop;
    int index = 0;
    if (views::CduItem::parseItemId(id, &loop, &index))
        return "CDU " + std::to_string(index + 1) + " of " + displayName(loop);
    const auto slot = m_doc.index().find(id.toStdString());
    if (!slot) return id.toStdString();
    return m_doc.project().withCollection(slot->kind, [&](const auto& c) {
        const auto& e = c[slot->index];
        return e.name.empty() ? e.id : e.name;
    });
}

QString DocumentEditor::setAssumption(const QString& key, const std::optional<model::Assumption>& value,
                                      const std::optional<model::Assumption>& before) {
    const std::string k = key.toStdString(), name = views::fieldName(k).toStdString();
    std::string label = "Reset " + name + " to the shipped default";
    if (value) {
        // The unit the value is read in: the design's (checked equal to the shipped one) or the shipped one.
        std::string unit = value->unit;
        if (unit.empty() && before) unit = before->unit;
        const auto say = [&](double x) { return views::describeAssumptionValue(x, unit).toStdString(); };
        label = "Set " + name + " to " + say(value->base);
        std::optional<model::Assumption> was = before;
        if (const auto it = m_doc.project().assumptions.find(k);
            !was && it != m_doc.project().assumptions.end())
            was = it->second;
        if (!was || was->low != value->low || was->high != value->high)
            label += " (range " + say(value->low) + " to " + say(value->high) + ")";
    }
    return run(label, [&](model::Transaction& t) { t.setAssumption(k, value); });
}

QString DocumentEditor::setProjectInfo(const ojson& info) {
    const auto& now = m_doc.project().info;
    const std::string name = info.value("name", now.name);
    std::string label;
    if (name != now.name)
        label = "Rename design to " + name;
    else if (info.value("description", now.description) != now.description)
        label = "Edit the description of " + (name.empty() ? now.id : name);
    else if (const std::string start = info.value("build_start", now.buildStart); start != now.buildStart)
        label = start.empty() ? "Clear the build start" : "Set the build start to " + start;
    else if (const std::string c = info.value("tco_convention", now.tcoConvention); c != now.tcoConvention)
        label = "Use the " + c + " TCO convention";
    else
        label = "Edit the sources of " + (name.empty() ? now.id : name);
    return run(label, [&](model::Transaction& t) { t.setProjectInfo(info); });
}

QString DocumentEditor::addDefaultTrainingJob(QString* newId) {
    const auto& p = m_doc.project();
    double gpus = 0;
    for (const auto& r : p.racks)
        if (!r.spare) gpus += catalogValue(m_doc, r.rackType, "gpus", 0.0);
    if (gpus < 1) return QObject::tr("The design has no GPUs yet; place compute racks first.");
    // Llama 3 70B pre-training as the plain default: 70.6B parameters, 15T tokens ("The Llama 3 Herd of
    // Models", Meta 2024), from the model presets when the catalog ships them. BF16, MFU from the
    // assumptions (0), 16 bytes of checkpoint state per parameter (REFERENCES.md, mixed-precision Adam),
    // tensor parallel within an 8-GPU server, data parallel over the rest.
    double params = 70.6e9;
    if (m_doc.catalog())
        if (const auto* preset = m_doc.catalog()->find("llama3-70b"); preset && preset->find("model_params"))
            params = preset->value("model_params");
    const int tp = gpus >= 8 ? 8 : 1;
    ojson sites = ojson::array();
    for (const auto& s : p.sites)
        sites.push_back(s.id);
    const std::string id = freeId("training-job");
    const QString error = run("Add a default training job", [&](model::Transaction& t) {
        t.add(model::EntityKind::TrainingJob,
              ojson{{"id", id},
                    {"name", "Default training job"},
                    {"model_params", params},
                    {"active_params", params},
                    {"tokens", 15e12},
                    {"precision", "bf16"},
                    {"mfu", nullptr}, // absent: assumptions.mfu
                    {"gpus", gpus},
                    {"tp", tp},
                    {"pp", 1},
                    {"dp", std::max(1, static_cast<int>(gpus) / tp)},
                    {"ep", 1},
                    {"checkpoint_bytes_per_param", 16.0},
                    {"storage_tier", p.storageTiers.empty() ? std::string() : p.storageTiers.front().id},
                    {"sites", sites},
                    {"restart_scope", "whole_job"},
                    {"async_checkpoint", false}});
    });
    if (error.isEmpty() && newId) *newId = QString::fromStdString(id);
    return error;
}

std::string DocumentEditor::freeId(const std::string& base) const {
    if (!m_doc.index().find(base)) return base;
    for (int n = 2;; ++n) {
        const std::string id = base + "-" + std::to_string(n);
        if (!m_doc.index().find(id)) return id;
    }
}

QString DocumentEditor::setProperty(const QStringList& ids, const QString& field, const ojson& value,
                                    bool mergeable) {
    if (ids.isEmpty()) return QObject::tr("Nothing selected.");
    const std::string f = field.toStdString();
    // As a person would say it: "Set electricity price of Mount Pleasant to $0.065/kWh".
    std::string of = ids.size() == 1 ? displayName(ids.front()) : std::to_string(ids.size()) + " entities";
    if (ids.size() > 1)
        if (const auto slot = m_doc.index().find(ids.front().toStdString())) {
            bool sameKind = true;
            for (const QString& id : ids) {
                const auto s = m_doc.index().find(id.toStdString());
                sameKind = sameKind && s && s->kind == slot->kind;
            }
            if (sameKind)
                of = std::to_string(ids.size()) + " " + std::string(model::entityKindName(slot->kind)) + "s";
        }
    const std::string label = "Set " + views::fieldName(f).toStdString() + " of " + of + " to " +
                              views::describeValue(f, value).toStdString();
    return run(
        label,
        [&](model::Transaction& t) {
            for (const QString& id : ids) {
                // A loop's CDU count and its CDUs on the plan stay one: the kept CDUs keep their place,
                // added ones go to free floor (app/gui/cdu_layout.h), so the plan draws exactly cdu_count.
                if (f == "cdu_count" && value.is_number_integer() && m_doc.catalog())
                    if (const auto* loop = findById(m_doc.project().coolingLoops, id.toStdString())) {
                        ojson cdus = ojson::array();
                        for (const auto& c :
                             resizedCduLayout(m_doc.project(), *m_doc.catalog(), *loop, value.get<int>()))
                            cdus.push_back(ojson{{"x_m", c.xM}, {"y_m", c.yM}});
                        t.setProperty(id.toStdString(), "cdus", cdus);
                    }
                t.setProperty(id.toStdString(), f, value);
            }
        },
        mergeable ? QStringLiteral("set:%1:%2").arg(field, QString::fromStdString(joinIds(ids))) : QString());
}

QString DocumentEditor::rowAt(const QString& hallId, QPointF pos, const QString& rackType) const {
    const auto& p = m_doc.project();
    const double depth = catalogValue(m_doc, rackType.toStdString(), "depth_m", 1.2);
    const model::Row* best = nullptr;
    double bestDistance = depth + kEps; // rows are depth + aisle apart, so within one depth is unambiguous
    for (const auto& r : p.rows) {
        if (QString::fromStdString(r.hall) != hallId) continue;
        const double d =
            sideways(r.rotationDeg) ? std::abs(pos.x() - r.x.value()) : std::abs(pos.y() - r.y.value());
        if (d <= bestDistance) best = &r, bestDistance = d;
    }
    return best ? QString::fromStdString(best->id) : QString();
}

std::string DocumentEditor::ensureRow(model::Transaction& t, const std::string& hall, QPointF& pos,
                                      const std::string& rackType, double rotation) {
    const QString row = rowAt(QString::fromStdString(hall), pos, QString::fromStdString(rackType));
    if (!row.isEmpty()) {
        const auto* r = findById(m_doc.project().rows, row.toStdString());
        // Line the rack up with its row.
        if (sideways(r->rotationDeg))
            pos.setX(r->x.value());
        else
            pos.setY(r->y.value());
        return r->id;
    }
    int n = 0;
    for (const auto& r : m_doc.project().rows)
        n += r.hall == hall;
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "-R%02d", n + 1);
    const std::string id = freeId(hall + suffix);
    t.add(model::EntityKind::Row, ojson{{"id", id},
                                        {"name", "Row " + std::to_string(n + 1)},
                                        {"hall", hall},
                                        {"x_m", pos.x()},
                                        {"y_m", pos.y()},
                                        {"rotation_deg", rotation}});
    return id;
}

void DocumentEditor::checkPlacement(const std::string& hall, const QRectF& fp,
                                    const QStringList& ignore) const {
    const auto& p = m_doc.project();
    const auto* h = findById(p.halls, hall);
    if (!h) throw rejected("hall '" + hall + "' does not exist");
    const QRectF inside(0, 0, h->width.value(), h->depth.value());
    if (!inside.adjusted(-kEps, -kEps, kEps, kEps).contains(fp))
        throw rejected("the position is outside hall '" + (h->name.empty() ? h->id : h->name) + "'");
    const QRectF shrunk = fp.adjusted(kEps, kEps, -kEps, -kEps);
    std::set<std::string> rows;
    for (const auto& r : p.rows)
        if (r.hall == hall) rows.insert(r.id);
    for (const auto& r : p.racks) {
        if (!rows.count(r.row) || ignore.contains(QString::fromStdString(r.id))) continue;
        if (rackRect(m_doc, r.rackType, r.x.value(), r.y.value(), r.rotationDeg).intersects(shrunk))
            throw rejected("the position is taken by rack '" + (r.name.empty() ? r.id : r.name) + "'");
    }
    for (const auto& l : p.coolingLoops) {
        if (l.hall != hall) continue;
        for (size_t i = 0; i < l.cdus.size(); ++i) {
            if (ignore.contains(views::CduItem::itemId(QString::fromStdString(l.id), static_cast<int>(i))))
                continue;
            if (cduRect(m_doc, l.cduType, l.cdus[i].xM, l.cdus[i].yM).intersects(shrunk))
                throw rejected("the position is taken by a CDU of loop '" + l.id + "'");
        }
    }
}

namespace {

/// Feeds and loop for a new rack: from the nearest rack of its row, else of its hall, else the hall's
/// first loop and the building's first two feeds.
struct Services {
    std::string feedA, feedB, loop;
};

Services servicesFor(const model::Document& doc, const std::string& hall, const std::string& row, QPointF pos,
                     const std::string& rackType) {
    const auto& p = doc.project();
    std::set<std::string> rows;
    for (const auto& r : p.rows)
        if (r.hall == hall) rows.insert(r.id);
    const model::RackPlacement* best = nullptr;
    double bestScore = 1e300;
    for (const auto& r : p.racks) {
        if (!rows.count(r.row)) continue;
        const double d =
            std::hypot(r.x.value() - pos.x(), r.y.value() - pos.y()) + (r.row == row ? 0.0 : 1e6);
        if (d < bestScore) best = &r, bestScore = d;
    }
    if (best) return {best->feedA, best->feedB, best->coolingLoop};
    Services s;
    const auto* h = findById(p.halls, hall);
    for (const auto& f : p.powerFeeds) {
        if (!h || f.building != h->building) continue;
        if (s.feedA.empty())
            s.feedA = f.id;
        else if (s.feedB.empty())
            s.feedB = f.id;
    }
    if (catalogValue(doc, rackType, "liquid_fraction", 0.0) > 0.0)
        for (const auto& l : p.coolingLoops)
            if (l.hall == hall) {
                s.loop = l.id;
                break;
            }
    return s;
}

std::string rackName(const model::Project& p, const std::string& row) {
    const auto* r = findById(p.rows, row);
    std::string prefix = r ? (r->name.empty() ? r->id : r->name) : row;
    if (const auto space = prefix.rfind(' '); space != std::string::npos) prefix = prefix.substr(space + 1);
    int n = 0;
    for (const auto& rack : p.racks)
        n += rack.row == row;
    char buf[16];
    std::snprintf(buf, sizeof buf, "-%02d", n + 1);
    return prefix + buf;
}

/// rackName, but never one a rack of the design already has (racks deleted from the row leave gaps, so
/// the count alone can repeat a name).
std::string freshRackName(const model::Project& p, const std::string& row) {
    std::set<std::string> taken;
    for (const auto& rack : p.racks)
        taken.insert(rack.name);
    std::string name = rackName(p, row);
    const std::string stem = name.substr(0, name.rfind('-'));
    int n = 0;
    for (const auto& rack : p.racks)
        n += rack.row == row;
    for (int k = n + 2; taken.count(name); ++k) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "-%02d", k);
        name = stem + buf;
    }
    return name;
}

/// The stored form of a new rack (data/FORMAT.md, racks): placed at `pos` on `row`, on the given services.
ojson newRackJson(const std::string& id, const std::string& name, const std::string& row,
                  const std::string& type, QPointF pos, double rotation, const Services& s) {
    return ojson{{"id", id},
                 {"name", name},
                 {"row", row},
                 {"rack_type", type},
                 {"x_m", pos.x()},
                 {"y_m", pos.y()},
                 {"rotation_deg", rotation},
                 {"feed_a", s.feedA},
                 {"feed_b", s.feedB},
                 {"cooling_loop", s.loop},
                 {"spare", false}};
}

} // namespace

QString DocumentEditor::placeRack(const QString& rackType, const QString& hallId, QPointF pos,
                                  QString* newId) {
    const std::string type = rackType.toStdString(), hall = hallId.toStdString();
    if (!m_doc.catalog() || !m_doc.catalog()->find(type))
        return QObject::tr("Unknown rack type '%1'.").arg(rackType);
    std::string added;
    const auto* typeItem = m_doc.catalog()->find(type);
    const QString error = run("Place " + typeItem->name + " rack", [&](model::Transaction& t) {
        const std::string row = ensureRow(t, hall, pos, type, 0.0);
        const auto* r = findById(m_doc.project().rows, row);
        const double rotation = r ? r->rotationDeg : 0.0;
        checkPlacement(hall, rackRect(m_doc, type, pos.x(), pos.y(), rotation), {});
        const Services s = servicesFor(m_doc, hall, row, pos, type);
        int n = 0;
        for (const auto& rack : m_doc.project().racks)
            n += rack.row == row;
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "-%02d", n + 1);
        added = freeId(row + suffix);
        t.add(model::EntityKind::RackPlacement,
              newRackJson(added, rackName(m_doc.project(), row), row, type, pos, rotation, s));
    });
    if (error.isEmpty() && newId) *newId = QString::fromStdString(added);
    return error;
}

QString DocumentEditor::placeCdu(const QString& cduType, const QString& hallId, QPointF pos) {
    const std::string type = cduType.toStdString(), hall = hallId.toStdString();
    if (!m_doc.catalog() || !m_doc.catalog()->find(type))
        return QObject::tr("Unknown CDU type '%1'.").arg(cduType);
    return run("Place " + m_doc.catalog()->find(type)->name + " CDU in " + displayName(hallId),
               [&](model::Transaction& t) {
                   checkPlacement(hall, cduRect(m_doc, type, pos.x(), pos.y()), {});
                   const auto& p = m_doc.project();
                   const model::CoolingLoop* best = nullptr;
                   double bestDistance = 1e300;
                   for (const auto& l : p.coolingLoops) {
                       if (l.hall != hall || l.cduType != type) continue;
                       double d = 1e299;
                       for (const auto& c : l.cdus)
                           d = std::min(d, std::hypot(c.xM - pos.x(), c.yM - pos.y()));
                       if (d < bestDistance) best = &l, bestDistance = d;
                   }
                   const ojson point{{"x_m", pos.x()}, {"y_m", pos.y()}};
                   if (best) {
                       ojson cdus = model::entityToJson(*best)["cdus"];
                       cdus.push_back(point);
                       const std::string id = best->id;
                       const int count = best->cduCount;
                       t.setProperty(id, "cdus", cdus);
                       t.setProperty(id, "cdu_count", count + 1);
                       return;
                   }
                   std::string plant;
                   for (const auto& l : p.coolingLoops)
                       if (!l.plant.empty()) plant = l.plant;
                   if (plant.empty())
                       for (const auto* item : m_doc.catalog()->byCategory("cooling"))
                           if (item->kind == "plant") {
                               plant = item->id;
                               break;
                           }
                   t.add(model::EntityKind::CoolingLoop, ojson{{"id", freeId(hall + "-loop")},
                                                               {"name", "Loop (" + type + ")"},
                                                               {"hall", hall},
                                                               {"cdu_type", type},
                                                               {"cdu_count", 1},
                                                               {"redundancy", "N"},
                                                               {"plant", plant},
                                                               {"cdus", ojson::array({point})}});
               });
}

QString DocumentEditor::move(const QList<views::FloorMove>& moves) {
    if (moves.isEmpty()) return {};
    size_t cdus = 0;
    for (const auto& m : moves)
        cdus += views::CduItem::parseItemId(m.id, nullptr, nullptr) ? 1 : 0;
    const std::string label = moves.size() == 1 ? "Move " + displayName(moves.front().id)
                                                : "Move " + countWords(moves.size() - cdus, cdus);
    QStringList moving;
    for (const auto& m : moves)
        moving << m.id;
    return run(label, [&](model::Transaction& t) {
        std::map<std::string, ojson> cduLists; // loop -> edited cdus
        for (const auto& m : moves) {
            QString loopId;
            int index = 0;
            if (views::CduItem::parseItemId(m.id, &loopId, &index)) {
                const auto* l = findById(m_doc.project().coolingLoops, loopId.toStdString());
                if (!l || index >= static_cast<int>(l->cdus.size()))
                    throw rejected("unknown CDU " + m.id.toStdString());
                checkPlacement(l->hall, cduRect(m_doc, l->cduType, m.hallPos.x(), m.hallPos.y()), moving);
                auto& list = cduLists[l->id];
                if (list.is_null()) list = model::entityToJson(*l)["cdus"];
                list[static_cast<size_t>(index)] = ojson{{"x_m", m.hallPos.x()}, {"y_m", m.hallPos.y()}};
                continue;
            }
            const auto* rack = findById(m_doc.project().racks, m.id.toStdString());
            if (!rack) throw rejected("unknown rack " + m.id.toStdString());
            const std::string id = rack->id, type = rack->rackType;
            const double rotation = rack->rotationDeg;
            const std::string fromHall = hallOfRow(m_doc.project(), rack->row);
            const std::string toHall = m.hallId.isEmpty() ? fromHall : m.hallId.toStdString();
            QPointF pos = m.hallPos;
            if (toHall != fromHall) {
                const std::string row = ensureRow(t, toHall, pos, type, rotation);
                t.setProperty(id, "row", row);
                const Services s = servicesFor(m_doc, toHall, row, pos, type);
                t.setProperty(id, "feed_a", s.feedA);
                t.setProperty(id, "feed_b", s.feedB);
                t.setProperty(id, "cooling_loop", s.loop);
            }
            checkPlacement(toHall, rackRect(m_doc, type, pos.x(), pos.y(), rotation), moving);
            t.setProperty(id, "x_m", pos.x());
            t.setProperty(id, "y_m", pos.y());
        }
        for (const auto& [loop, list] : cduLists)
            t.setProperty(loop, "cdus", list);
    });
}

QString DocumentEditor::nudge(const QStringList& ids, QPointF delta) {
    QList<views::FloorMove> moves;
    const auto& p = m_doc.project();
    for (const QString& id : ids) {
        QString loopId;
        int index = 0;
        if (views::CduItem::parseItemId(id, &loopId, &index)) {
            if (const auto* l = findById(p.coolingLoops, loopId.toStdString());
                l && index < static_cast<int>(l->cdus.size()))
                moves.push_back(
                    {id, QString::fromStdString(l->hall),
                     QPointF(l->cdus[static_cast<size_t>(index)].xM, l->cdus[static_cast<size_t>(index)].yM) +
                         delta});
        } else if (const auto* r = findById(p.racks, id.toStdString())) {
            moves.push_back({id, QString::fromStdString(hallOfRow(p, r->row)),
                             QPointF(r->x.value(), r->y.value()) + delta});
        }
    }
    if (moves.isEmpty()) return {};
    QStringList moving;
    for (const auto& m : moves)
        moving << m.id;
    size_t cdus = 0;
    for (const auto& m : moves)
        cdus += views::CduItem::parseItemId(m.id, nullptr, nullptr) ? 1 : 0;
    return run(
        moves.size() == 1 ? "Move " + displayName(moves.front().id)
                          : "Move " + countWords(moves.size() - cdus, cdus),
        [&](model::Transaction& t) {
            std::map<std::string, ojson> cduLists;
            for (const auto& m : moves) {
                QString loopId;
                int index = 0;
                if (views::CduItem::parseItemId(m.id, &loopId, &index)) {
                    const auto* l = findById(m_doc.project().coolingLoops, loopId.toStdString());
                    checkPlacement(l->hall, cduRect(m_doc, l->cduType, m.hallPos.x(), m.hallPos.y()), moving);
                    auto& list = cduLists[l->id];
                    if (list.is_null()) list = model::entityToJson(*l)["cdus"];
                    list[static_cast<size_t>(index)] = ojson{{"x_m", m.hallPos.x()}, {"y_m", m.hallPos.y()}};
                    continue;
                }
                const auto* r = findById(m_doc.project().racks, m.id.toStdString());
                checkPlacement(m.hallId.toStdString(),
                               rackRect(m_doc, r->rackType, m.hallPos.x(), m.hallPos.y(), r->rotationDeg),
                               moving);
                const std::string id = r->id;
                t.setProperty(id, "x_m", m.hallPos.x());
                t.setProperty(id, "y_m", m.hallPos.y());
            }
            for (const auto& [loop, list] : cduLists)
                t.setProperty(loop, "cdus", list);
        },
        QStringLiteral("nudge:%1").arg(QString::fromStdString(joinIds(moving))));
}

QString DocumentEditor::rotate(const QStringList& ids, double degrees) {
    size_t racks = 0;
    for (const QString& id : ids)
        racks += findById(m_doc.project().racks, id.toStdString()) ? 1 : 0;
    return run("Rotate " + countWords(racks, 0), [&](model::Transaction& t) {
        int n = 0;
        for (const QString& id : ids) {
            const auto* r = findById(m_doc.project().racks, id.toStdString());
            if (!r) continue;
            double next = std::fmod(r->rotationDeg + degrees, 360.0);
            if (next < 0) next += 360.0;
            const std::string rid = r->id;
            t.setProperty(rid, "rotation_deg", next);
            ++n;
        }
        if (n == 0) throw rejected("select racks to rotate");
    });
}

QString DocumentEditor::remove(const QStringList& ids) {
    if (ids.isEmpty()) return QObject::tr("Nothing selected.");
    const auto& p = m_doc.project();
    // Who refers to whom, in one pass over the design: the references each entity's visitFields declares
    // (no JSON per entity: a 5,000-rack campus is scanned in about a millisecond). The views point into the
    // project, which stays as it is until the transaction below.
    struct Ref {
        const std::string* from;
        const char* field;
        model::ReferenceType type;
    };
    std::unordered_map<std::string_view, std::vector<Ref>> refs;
    p.forEachCollection([&](const auto& c) {
        for (const auto& e : c)
            model::forEachReference(
                e, [&](const char* key, const std::string& target, model::ReferenceType type) {
                    refs[target].push_back({&e.id, key, type});
                });
    });
    std::set<std::string> removing;
    std::map<std::string, std::set<int>> cdusRemoved;
    std::map<std::pair<std::string, std::string>, std::set<std::string>> listRemovals;
    std::map<std::pair<std::string, std::string>, bool> clears;
    std::vector<std::string> work;
    for (const QString& id : ids) {
        QString loop;
        int index = 0;
        if (views::CduItem::parseItemId(id, &loop, &index))
            cdusRemoved[loop.toStdString()].insert(index);
        else if (m_doc.index().find(id.toStdString()))
            work.push_back(id.toStdString());
    }
    std::vector<std::string> order;
    while (!work.empty()) {
        const std::string id = work.back();
        work.pop_back();
        if (!removing.insert(id).second) continue;
        order.push_back(id);
        const auto it = refs.find(id);
        if (it == refs.end()) continue;
        for (const auto& r : it->second) {
            switch (r.type) {
            case model::ReferenceType::ListItem: // one of a list (a fabric's buildings): leaves the list
                listRemovals[{*r.from, r.field}].insert(id);
                break;
            case model::ReferenceType::Optional: // a rack's loop or feed: cleared
                clears[{*r.from, r.field}] = true;
                break;
            case model::ReferenceType::Required: // a row's hall, a link's end: goes with it
            case model::ReferenceType::Endpoint:
                work.push_back(*r.from);
                break;
            }
        }
    }
    const size_t cduCount = [&] {
        size_t n = 0;
        for (const auto& [l, s] : cdusRemoved)
            n += removing.count(l) ? 0 : s.size();
        return n;
    }();
    const size_t total = order.size() + cduCount;
    if (total == 0) return QObject::tr("Nothing to delete.");
    // "Delete Hall 2" (what was picked, by name), "Delete 12 racks", "Delete 3 items".
    std::string label;
    if (ids.size() == 1) {
        label = "Delete " + displayName(ids.front()); // what goes with it is the confirmation's job
    } else {
        std::optional<model::EntityKind> kind;
        bool same = cduCount == 0;
        for (const auto& id : order) {
            const auto slot = m_doc.index().find(id);
            if (slot && kind && *kind != slot->kind) same = false;
            if (slot) kind = slot->kind;
        }
        label = same && kind ? "Delete " + std::to_string(total) + " " +
                                   std::string(model::entityKindName(*kind)) + (total == 1 ? "" : "s")
                : cduCount == total ? "Delete " + countWords(0, cduCount)
                                    : "Delete " + std::to_string(total) + " items";
    }
    return run(label, [&](model::Transaction& t) {
        for (const auto& [where, on] : clears)
            if (!removing.count(where.first)) t.setProperty(where.first, where.second, "");
        for (const auto& [where, gone] : listRemovals) {
            if (removing.count(where.first)) continue;
            const auto slot = m_doc.index().find(where.first);
            // A named copy: clang 14 refuses a structured binding captured by a nested lambda.
            const std::string& field = where.second;
            ojson list = m_doc.project().withCollection(
                slot->kind, [&](const auto& c) { return model::entityToJson(c[slot->index])[field]; });
            ojson kept = ojson::array();
            for (const auto& x : list)
                if (!x.is_string() || !gone.count(x.get<std::string>())) kept.push_back(x);
            t.setProperty(where.first, where.second, kept);
        }
        for (const auto& [loop, indices] : cdusRemoved) {
            if (removing.count(loop)) continue;
            const auto* l = findById(m_doc.project().coolingLoops, loop);
            if (!l) continue;
            ojson kept = ojson::array();
            for (size_t i = 0; i < l->cdus.size(); ++i)
                if (!indices.count(static_cast<int>(i)))
                    kept.push_back(ojson{{"x_m", l->cdus[i].xM}, {"y_m", l->cdus[i].yM}});
            const int count = std::max(0, l->cduCount - static_cast<int>(l->cdus.size() - kept.size()));
            t.setProperty(loop, "cdus", kept);
            t.setProperty(loop, "cdu_count", count);
        }
        // Children before parents keeps every intermediate state referentially sound for readers.
        t.remove(std::vector<std::string>(order.rbegin(), order.rend()));
    });
}

QString DocumentEditor::fillRow(const QString& rowId, const QString& rackTypeIn, int* addedCount) {
    const auto& p = m_doc.project();
    const auto* row = findById(p.rows, rowId.toStdString());
    if (!row) return QObject::tr("Select a row (or a rack in it) to fill.");
    std::string type = rackTypeIn.toStdString();
    for (const auto& r : p.racks)
        if (r.row == row->id && rackTypeIn.isEmpty()) type = r.rackType;
    if (type.empty()) return QObject::tr("Pick a rack type in the catalog palette to fill an empty row.");
    int added = 0;
    const QString error = run("Fill " + (row->name.empty() ? row->id : row->name),
                              [&](model::Transaction& t) { added = fillRow(t, rowId.toStdString(), type); });
    if (addedCount) *addedCount = error.isEmpty() ? added : 0;
    return error;
}

int DocumentEditor::fillRow(model::Transaction& t, const std::string& rowId, const std::string& type,
                            int maxRacks) {
    const auto& p = m_doc.project();
    const auto* r = findById(p.rows, rowId);
    if (!r) throw rejected("row '" + rowId + "' does not exist");
    const std::string hall = r->hall, rowName = r->name.empty() ? r->id : r->name;
    const bool alongY = sideways(r->rotationDeg);
    const double rotation = r->rotationDeg;
    const auto* h = findById(p.halls, hall);
    if (!h) throw rejected("hall '" + hall + "' does not exist");
    // One walk over the design for the whole row (a filled row is a dozen racks on a 5,000-rack campus):
    // what stands in the hall (checkPlacement's racks and CDUs), the row's racks in design order (where
    // the row ends; servicesFor's nearest rack of the row), and how many the row holds (names and ids).
    std::set<std::string> hallRows;
    for (const auto& row : p.rows)
        if (row.hall == hall) hallRows.insert(row.id);
    std::vector<QRectF> taken;
    struct RowRack {
        QPointF pos;
        Services services;
    };
    std::vector<RowRack> rowRacks;
    QPointF next(r->x.value(), r->y.value());
    for (const auto& rack : p.racks) {
        if (!hallRows.count(rack.row)) continue;
        const QRectF fp = rackRect(m_doc, rack.rackType, rack.x.value(), rack.y.value(), rack.rotationDeg);
        taken.push_back(fp);
        if (rack.row != rowId) continue;
        rowRacks.push_back(
            {QPointF(rack.x.value(), rack.y.value()), {rack.feedA, rack.feedB, rack.coolingLoop}});
        if (alongY)
            next.setY(std::max(next.y(), fp.bottom()));
        else
            next.setX(std::max(next.x(), fp.right()));
    }
    for (const auto& l : p.coolingLoops)
        if (l.hall == hall)
            for (const auto& c : l.cdus)
                taken.push_back(cduRect(m_doc, l.cduType, c.xM, c.yM));
    const QRectF inside = QRectF(0, 0, h->width.value(), h->depth.value()).adjusted(-kEps, -kEps, kEps, kEps);
    const std::string prefix = [&] { // rackName's: the row's name after its last space
        const auto space = rowName.rfind(' ');
        return space == std::string::npos ? rowName : rowName.substr(space + 1);
    }();
    int added = 0;
    for (int guard = 0; guard < std::clamp(maxRacks, 0, 1000); ++guard) { // a row holds at most 1,000
        const QRectF fp = rackRect(m_doc, type, next.x(), next.y(), rotation);
        // checkPlacement's test: inside the hall, overlapping nothing (edges may touch).
        const QRectF shrunk = fp.adjusted(kEps, kEps, -kEps, -kEps);
        if (!inside.contains(fp) ||
            std::any_of(taken.begin(), taken.end(), [&](const QRectF& o) { return o.intersects(shrunk); }))
            break; // the wall or the next rack/CDU ends the row
        // servicesFor: the nearest rack of the row (the first of equals in design order), else of the hall.
        Services s;
        if (rowRacks.empty()) {
            s = servicesFor(m_doc, hall, rowId, next, type);
        } else {
            double best = 1e300;
            for (const auto& rr : rowRacks)
                if (const double d = std::hypot(rr.pos.x() - next.x(), rr.pos.y() - next.y()); d < best)
                    best = d, s = rr.services;
        }
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "-%02d", static_cast<int>(rowRacks.size()) + 1);
        t.add(model::EntityKind::RackPlacement,
              newRackJson(freeId(rowId + suffix), prefix + suffix, rowId, type, next, rotation, s));
        ++added;
        taken.push_back(fp);
        rowRacks.push_back({next, s});
        if (alongY)
            next.setY(fp.bottom());
        else
            next.setX(fp.right());
    }
    if (added == 0) throw rejected("row '" + rowName + "' is full up to the wall or the next obstacle");
    return added;
}

ojson DocumentEditor::copy(const QStringList& ids) const {
    ojson racks = ojson::array();
    std::string hall;
    for (const QString& id : ids)
        if (const auto* r = findById(m_doc.project().racks, id.toStdString())) {
            racks.push_back(model::entityToJson(*r));
            if (hall.empty()) hall = hallOfRow(m_doc.project(), r->row);
        }
    if (racks.empty()) return nullptr;
    return ojson{{"format", "clustertwin-clipboard"}, {"hall", hall}, {"racks", racks}};
}

QString DocumentEditor::paste(const ojson& clip, const QString& hallId, QPointF anchor, QStringList* newIds) {
    if (!clip.is_object() || clip.value("format", "") != "clustertwin-clipboard" || !clip.contains("racks"))
        return QObject::tr("The clipboard holds no ClusterTwin racks.");
    const std::string hall = hallId.toStdString();
    const bool sameHall = clip.value("hall", "") == hall;
    double minX = 1e300, minY = 1e300;
    for (const auto& r : clip["racks"]) {
        minX = std::min(minX, r.value("x_m", 0.0));
        minY = std::min(minY, r.value("y_m", 0.0));
    }
    QStringList added;
    const QString error =
        run("Paste " + std::to_string(clip["racks"].size()) + " racks", [&](model::Transaction& t) {
            for (ojson r : clip["racks"]) {
                QPointF pos = anchor + QPointF(r.value("x_m", 0.0) - minX, r.value("y_m", 0.0) - minY);
                const std::string type = r.value("rack_type", "");
                const double rotation = r.value("rotation_deg", 0.0);
                const std::string row = ensureRow(t, hall, pos, type, rotation);
                checkPlacement(hall, rackRect(m_doc, type, pos.x(), pos.y(), rotation), {});
                if (!sameHall) {
                    const Services s = servicesFor(m_doc, hall, row, pos, type);
                    r["feed_a"] = s.feedA, r["feed_b"] = s.feedB, r["cooling_loop"] = s.loop;
                }
                // A pasted rack is a new rack of its row: the next free id and name there, as if placed
                // from the palette (copies of the original names would make two racks "R03-07").
                int n = 0;
                for (const auto& rack : m_doc.project().racks)
                    n += rack.row == row;
                std::string id;
                for (int k = n + 1; id.empty() || m_doc.index().find(id); ++k) {
                    char suffix[16];
                    std::snprintf(suffix, sizeof suffix, "-%02d", k);
                    id = row + suffix;
                }
                r["id"] = id;
                r["name"] = freshRackName(m_doc.project(), row);
                r["row"] = row;
                r["x_m"] = pos.x();
                r["y_m"] = pos.y();
                t.add(model::EntityKind::RackPlacement, r);
                added << QString::fromStdString(id);
            }
        });
    if (error.isEmpty() && newIds) *newIds = added;
    return error;
}

} // namespace ctwin::app
