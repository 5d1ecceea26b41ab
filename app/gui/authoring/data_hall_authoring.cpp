// How a data hall is made: a rectangle inside a building (by default the next free band, 6 m from the
// walls), refused when it leaves the building or overlaps another hall.
#include "authoring_form.h"
#include "gui/document_editor.h"

#include <algorithm>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;
constexpr double kWallM = 6.0; // corridors and plant rooms around a hall

class DataHallAuthoring : public ChildAuthoring {
public:
    DataHallAuthoring() : ChildAuthoring(model::EntityKind::Building) {}
    model::EntityKind kind() const override { return model::EntityKind::DataHall; }
    QString title() const override { return QObject::tr("Data hall"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        std::string building = selectedOrFirst(ctx, model::EntityKind::Building);
        double bw = 42.0, bd = 32.0, y = kWallM;
        for (const auto& b : p.buildings)
            if (b.id == building) bw = b.width.value(), bd = b.depth.value();
        int n = 0;
        for (const auto& h : p.halls)
            if (h.building == building) y = std::max(y, (h.y + h.depth).value() + 4.0), ++n;
        const double width = std::max(6.0, bw - 2 * kWallM);
        const double depth = std::max(6.0, std::min(20.0, bd - y - kWallM));
        form.setFixed("id", uniqueId(ctx.document, building + "-h" + std::to_string(n + 1)));
        // Named by the design's hall count ("Hall 3"): names stay unique across buildings in the tree.
        form.addField("name", nextName(ctx.document, kind(), "Hall"));
        form.addField("building", building);
        form.addField("x_m", kWallM);
        form.addField("y_m", y);
        form.addField("width_m", width);
        form.addField("depth_m", depth);
        form.addField("grid_m", 0.6);
        form.addField("power_oversubscription_ratio", nullptr);
        form.addNote(QObject::tr("Position and size in metres in the building's frame."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext& ctx) const override {
        const double x = e["x_m"], y = e["y_m"], w = e["width_m"], d = e["depth_m"];
        if (w <= 0 || d <= 0) return QObject::tr("A hall needs a width and a depth above 0 m");
        const std::string building = e["building"];
        for (const auto& b : ctx.document.project().buildings)
            if (b.id == building &&
                (x < 0 || y < 0 || x + w > b.width.value() + 1e-6 || y + d > b.depth.value() + 1e-6))
                return QObject::tr("The hall (%1 x %2 m at %3, %4) does not fit inside %5 (%6 x %7 m)")
                    .arg(w)
                    .arg(d)
                    .arg(x)
                    .arg(y)
                    .arg(QString::fromStdString(b.name))
                    .arg(b.width.value())
                    .arg(b.depth.value());
        for (const auto& h : ctx.document.project().halls) {
            if (h.building != building) continue;
            const bool apart = x >= (h.x + h.width).value() || h.x.value() >= x + w ||
                               y >= (h.y + h.depth).value() || h.y.value() >= y + d;
            if (!apart) return QObject::tr("The hall overlaps %1").arg(QString::fromStdString(h.name));
        }
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeDataHallAuthoring() {
    return std::make_unique<DataHallAuthoring>();
}

} // namespace ctwin::app
