// How a site is made: a name and a place (latitude/longitude typed, or picked from data/places.json),
// the local tariff and climate.
#include "authoring_form.h"
#include "gui/document_editor.h"
#include "gui/named_places.h"

#include <QComboBox>
#include <QLocale>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class SiteAuthoring : public EntityAuthoring {
public:
    model::EntityKind kind() const override { return model::EntityKind::Site; }
    QString title() const override { return QObject::tr("Site"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& doc = ctx.document;
        form.setFixed("id", uniqueId(doc, "site-" + std::to_string(doc.project().sites.size() + 1)));
        // Named places with sourced coordinates; picking one fills latitude and longitude.
        auto* places = makePlaceCombo();
        form.addExtra(QStringLiteral("place"), QObject::tr("Place"), places);
        form.addField("name", nextName(doc, kind(), "Site"));
        form.addField("lat_deg", 0.0);
        form.addField("lon_deg", 0.0);
        form.addField("electricity_usd_per_kwh", nullptr);
        form.addField("free_cooling_hours_per_year", nullptr);
        form.addField("land_cost_usd", 0.0);
        form.addField("climate_location", "");
        form.addField("grid_interconnect_mw", nullptr);
        form.addField("grid_interconnect_date", "");
        form.addField("power_oversubscription_ratio", nullptr);
        form.addNote(QObject::tr("Leave the tariff empty to use the design's electricity price assumption, the "
                                 "free-cooling hours empty to derive them from the climate, the climate "
                                 "location empty for the nearest location of the climate table, the grid "
                                 "interconnect empty when the utility sets no limit (the Power tab shows the "
                                 "site's load against it), and its date (YYYY-MM-DD) empty for the design's "
                                 "grid_interconnect_month; halls energised before it run on on-site "
                                 "generation."));
        QObject::connect(places, &QComboBox::currentIndexChanged, &form, [&form, places](int i) {
            const QStringList latLon = places->itemData(i).toStringList();
            if (latLon.size() != 2) return;
            form.setText(QStringLiteral("lat_deg"), latLon[0]);
            form.setText(QStringLiteral("lon_deg"), latLon[1]);
            const QString name = places->itemText(i).section(QLatin1Char(','), 0, 0);
            form.setText(QStringLiteral("name"), name);
        });
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeSiteAuthoring() {
    return std::make_unique<SiteAuthoring>();
}

} // namespace ctwin::app
