// How a scale-across link is made: between two different sites or buildings, with its capacity, WAN optic,
// route (a factor over the geodesic distance, or a measured length) and fiber lease.
#include "authoring_form.h"
#include "gui/document_editor.h"

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class ScaleAcrossLinkAuthoring : public EntityAuthoring {
public:
    model::EntityKind kind() const override { return model::EntityKind::ScaleAcrossLink; }
    QString title() const override { return QObject::tr("Scale-across link"); }
    QString unavailableReason(const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        // Scale-across joins sites or buildings, not a site to its own only building.
        return p.sites.size() < 2 && p.buildings.size() < 2
                   ? QObject::tr("Add a second site or building first.")
                   : QString();
    }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        AuthoringForm::Options ends;
        for (const auto& s : p.sites)
            ends.emplace_back(
                QObject::tr("Site %1").arg(QString::fromStdString(s.name.empty() ? s.id : s.name)),
                QString::fromStdString(s.id));
        for (const auto& b : p.buildings)
            ends.emplace_back(
                QObject::tr("Building %1").arg(QString::fromStdString(b.name.empty() ? b.id : b.name)),
                QString::fromStdString(b.id));
        const QString from = ends.empty() ? QString() : ends.front().second;
        const QString to = p.sites.size() >= 2 ? QString::fromStdString(p.sites[1].id)
                                               : (ends.size() >= 2 ? ends[1].second : QString());
        form.setFixed("id", uniqueId(ctx.document, "link-" + std::to_string(p.links.size() + 1)));
        form.addField("name", nextName(ctx.document, kind(), "Link"));
        form.addChoice("from", ends, from);
        form.addChoice("to", ends, to);
        form.addField("capacity_bit_per_s", 12.8e12);
        std::string optic;
        for (const auto* item : ctx.catalog.byCategory("wan"))
            if (item->kind == "optic" && optic.empty()) optic = item->id;
        form.addField("optic", optic);
        form.addField("route_factor", nullptr);
        form.addField("route_length_m", nullptr);
        form.addField("fiber_lease_usd_per_m_year", 0.0);
        form.addField("latency_budget_s", nullptr);
        form.addNote(QObject::tr(
            "An empty route length uses the route factor times the geodesic distance (WGS84 ellipsoid)."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (e["from"] == e["to"]) return QObject::tr("A link joins two different places; pick another end");
        if (e["capacity_bit_per_s"].get<double>() <= 0)
            return QObject::tr("A link needs a capacity above 0 Gb/s");
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeScaleAcrossLinkAuthoring() {
    return std::make_unique<ScaleAcrossLinkAuthoring>();
}

} // namespace ctwin::app
