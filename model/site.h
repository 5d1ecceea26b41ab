#pragma once
#include <optional>
#include <string>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A place with its own grid connection and climate (SPEC.md §3).
struct Site {
    static constexpr EntityKind kKind = EntityKind::Site;
    std::string id;
    std::string name;
    double latDeg = 0.0;
    double lonDeg = 0.0;
    /// The site's own tariff; absent means "use assumptions.electricity_usd_per_kwh" (the engine asks
    /// cost::InputResolver, which records which one it used).
    std::optional<double> electricityUsdPerKwh;
    /// Hours a year the outdoor air is cold enough for free cooling. Absent (the default): derived from the
    /// climate table (cost/cooling_plant.cpp); when set, it overrides the climate-derived economizer hours.
    std::optional<double> freeCoolingHoursPerYear;
    /// Id of a location of data/climate.json; empty: the location nearest to lat/lon.
    std::string climateLocation;
    units::Money landCost{};
    /// Firm capacity of the site's utility interconnect, MW at the meter; absent:
    /// not a constraint. The site's design-day facility peak must fit it plus its share of on-site
    /// generation (rule site_interconnect_exceeded).
    std::optional<double> gridInterconnectMw;
    /// When the utility energises that interconnect (YYYY-MM-DD, counted from project.build_start like a
    /// hall's energisation_date); empty: assumptions.grid_interconnect_month. Halls energised before it run
    /// on the site's share of on-site generation (bridge power; cost/timeline.h).
    std::string gridInterconnectDate;
    /// Oversubscription ratio of this power domain: its working compute racks' full-load
    /// draw over the power provisioned for them; absent: the design's
    /// assumptions.power_oversubscription_ratio. A rack is capped by the tightest domain above it (the
    /// largest of the design's, its site's, building's and hall's ratios; cost/power_envelope.h).
    std::optional<double> powerOversubscriptionRatio;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.number("lat_deg", latDeg, fieldRange(kKind, "lat_deg"));
        v.number("lon_deg", lonDeg, fieldRange(kKind, "lon_deg"));
        v.optionalNumber("electricity_usd_per_kwh", electricityUsdPerKwh,
                         fieldRange(kKind, "electricity_usd_per_kwh"));
        v.optionalNumber("free_cooling_hours_per_year", freeCoolingHoursPerYear,
                         fieldRange(kKind, "free_cooling_hours_per_year"));
        v.quantity("land_cost_usd", landCost, fieldRange(kKind, "land_cost_usd"));
        v.text("climate_location", climateLocation);
        v.optionalNumber("grid_interconnect_mw", gridInterconnectMw, fieldRange(kKind, "grid_interconnect_mw"));
        v.text("grid_interconnect_date", gridInterconnectDate);
        v.optionalNumber("power_oversubscription_ratio", powerOversubscriptionRatio,
                         fieldRange(kKind, "power_oversubscription_ratio"));
    }
};

} // namespace ctwin::model
