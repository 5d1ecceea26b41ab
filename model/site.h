#pragma once
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
    /// Tariff; zero means "use assumptions.electricity_usd_per_kwh".
    double electricityUsdPerKwh = 0.0;
    /// Hours a year the outdoor air is cold enough for free cooling (climate).
    double freeCoolingHoursPerYear = 0.0;
    units::Money landCost{};

    /// The tariff as a quantity (files keep the conventional $/kWh figure so it round-trips exactly).
    units::MoneyPerEnergy electricityPrice() const { return units::dollarsPerKwh(electricityUsdPerKwh); }

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.number("lat_deg", latDeg, kLatitude);
        v.number("lon_deg", lonDeg, kLongitude);
        v.number("electricity_usd_per_kwh", electricityUsdPerKwh, Bounds{0.0, 10.0});
        v.number("free_cooling_hours_per_year", freeCoolingHoursPerYear, Bounds{0.0, 8784.0});
        v.quantity("land_cost_usd", landCost, kMoneyUsd);
    }
};

} // namespace ctwin::model
