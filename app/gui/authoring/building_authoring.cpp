// How a building is made: on a site, with its utility capacity and its footprint on the campus plan,
// placed beside the site's other buildings by default; overlapping another building is refused.
#include "authoring_form.h"
#include "gui/document_editor.h"

#include <algorithm>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class BuildingAuthoring : public ChildAuthoring {
public:
    BuildingAuthoring() : ChildAuthoring(model::EntityKind::Site) {}
    model::EntityKind kind() const override { return model::EntityKind::Building; }
    QString title() const override { return QObject::tr("Building"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        std::string site = selectedOrFirst(ctx, model::EntityKind::Site);
        // Beside the site's last building, with a 10 m gap (roads, setbacks).
        double x = 0.0;
        for (const auto& b : p.buildings)
            if (b.site == site) x = std::max(x, (b.x + b.width).value() + 10.0);
        form.setFixed("id", uniqueId(ctx.document, "b" + std::to_string(p.buildings.size() + 1)));
        form.addField("name", nextName(ctx.document, kind(), "Building"));
        form.addField("site", site);
        form.addField("power_capacity_w", 12e6);
        form.addField("x_m", x);
        form.addField("y_m", 0.0);
        form.addField("width_m", 42.0);
        form.addField("depth_m", 32.0);
        form.addField("height_m", 12.0);
        form.addField("pue_pinned", nullptr);
        form.addField("shell_cost_usd", nullptr);
        form.addField("power_oversubscription_ratio", nullptr);
        form.addNote(
            QObject::tr("Power capacity is the utility (facility) power of the building. Leave the shell "
                        "cost empty to derive it from the building shell assumption, and the PUE empty to "
                        "compute it."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext& ctx) const override {
        const double x = e["x_m"], y = e["y_m"], w = e["width_m"], d = e["depth_m"];
        if (w <= 0 || d <= 0) return QObject::tr("A building needs a width and a depth above 0 m");
        for (const auto& b : ctx.document.project().buildings) {
            if (b.site != e["site"].get<std::string>()) continue;
            const bool apart = x >= (b.x + b.width).value() || b.x.value() >= x + w ||
                               y >= (b.y + b.depth).value() || b.y.value() >= y + d;
            if (!apart)
                return QObject::tr("The footprint overlaps %1 on the same site")
                    .arg(QString::fromStdString(b.name.empty() ? b.id : b.name));
        }
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeBuildingAuthoring() {
    return std::make_unique<BuildingAuthoring>();
}

} // namespace ctwin::app
