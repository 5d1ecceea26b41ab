// How a cooling loop is made: CDUs of a catalog type with a redundancy, a heat-rejection plant, supply
// temperature and ΔT, in a hall; exactly cdu_count CDUs are placed on free floor along the hall's walls,
// and the selected racks can be put on the loop in the same step.
#include "authoring_form.h"
#include "gui/cdu_layout.h"
#include "gui/document_editor.h"

#include <QCheckBox>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class CoolingLoopAuthoring : public ChildAuthoring {
public:
    CoolingLoopAuthoring() : ChildAuthoring(model::EntityKind::DataHall) {}
    model::EntityKind kind() const override { return model::EntityKind::CoolingLoop; }
    QString title() const override { return QObject::tr("Cooling loop"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        std::string hall = selectedOrFirst(ctx, model::EntityKind::DataHall);
        std::string hallName = hall, cdu, plant;
        for (const auto& h : p.halls)
            if (h.id == hall) hallName = h.name;
        for (const auto* item : ctx.catalog.byCategory("cooling")) {
            if (item->kind == "cdu" && (cdu.empty() || item->id == "cdu-2mw")) cdu = item->id;
            if (item->kind == "plant" && plant.empty()) plant = item->id;
        }
        form.setFixed("id", uniqueId(ctx.document, hall + "-loop"));
        form.addField("name", hallName + " loop");
        form.addField("hall", hall);
        AuthoringForm::Options cdus, plants;
        for (const auto* item : ctx.catalog.byCategory("cooling"))
            (item->kind == "cdu" ? cdus : plants)
                .emplace_back(QStringLiteral("%1 (%2)").arg(QString::fromStdString(item->name),
                                                            QString::fromStdString(item->id)),
                              QString::fromStdString(item->id));
        form.addChoice("cdu_type", cdus, QString::fromStdString(cdu));
        form.addField("cdu_count", 3);
        form.addField("redundancy", "N+1");
        form.addChoice("plant", plants, QString::fromStdString(plant));
        form.addField("supply_temp_c", 35.0);
        form.addField("delta_t_k", 10.0);
        const QStringList racks = selectedRacks(ctx);
        auto* assign = new QCheckBox(
            QObject::tr("Serve the %n selected racks", nullptr, static_cast<int>(racks.size())));
        assign->setChecked(!racks.isEmpty());
        assign->setEnabled(!racks.isEmpty());
        form.addExtra(QStringLiteral("assign"), QString(), assign);
        form.addNote(QObject::tr(
            "The CDUs are placed on free floor from the hall's left wall; drag them on the plan."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext& ctx) const override {
        const int count = e["cdu_count"];
        const std::string redundancy = e["redundancy"];
        if (count < 1) return QObject::tr("A loop needs at least one CDU");
        if (redundancy == "N+1" && count < 2)
            return QObject::tr("N+1 needs at least 2 CDUs (one is the spare)");
        if (redundancy == "2N" && count % 2 != 0) return QObject::tr("2N needs an even number of CDUs");
        const auto spots = freeCduSpots(ctx.document.project(), ctx.catalog, e["hall"], e["cdu_type"], count);
        if (static_cast<int>(spots.size()) < count)
            return QObject::tr("Only %1 of the %2 CDUs fit on the free floor of the hall")
                .arg(spots.size())
                .arg(count);
        return {};
    }

    QString create(const ojson& entity, const AuthoringForm& form, AuthoringContext& ctx,
                   QString* newId) const override {
        ojson e = entity;
        ojson points = ojson::array();
        for (const QPointF& s :
             freeCduSpots(ctx.document.project(), ctx.catalog, e["hall"], e["cdu_type"], e["cdu_count"]))
            points.push_back(ojson{{"x_m", s.x()}, {"y_m", s.y()}});
        e["cdus"] = points;
        const QStringList racks =
            form.isChecked(QStringLiteral("assign")) ? selectedRacks(ctx) : QStringList();
        std::string id;
        const QString error = ctx.editor.run(
            "Add cooling loop " + e.value("name", std::string()) +
                (racks.isEmpty() ? std::string() : " serving " + std::to_string(racks.size()) + " racks"),
            [&](model::Transaction& t) {
                id = t.add(kind(), e);
                for (const QString& r : racks)
                    t.setProperty(r.toStdString(), "cooling_loop", id);
            });
        if (error.isEmpty() && newId) *newId = QString::fromStdString(id);
        return error;
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeCoolingLoopAuthoring() {
    return std::make_unique<CoolingLoopAuthoring>();
}

} // namespace ctwin::app
