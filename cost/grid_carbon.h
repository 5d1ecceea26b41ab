#pragma once
// Location-based grid carbon intensity per climate location: data/grid_carbon.json, beside
// the climate table (cost/climate.h). GHG Protocol Scope 2 location-based method: the grid region's annual
// average emission factor at the meter, not marginal and not market-based (power purchase agreements and
// certificates are not counted). Each entry names its grid region, year and source, with a low/high range.

#include <memory>
#include <string>
#include <vector>

namespace ctwin::cost {

struct GridCarbon {
    std::string id;     // climate location id (data/climate.json)
    std::string region; // grid region the location draws from (eGRID subregion, country, ...)
    std::string source;
    int year = 0;
    double gco2ePerKwh = 0.0, low = 0.0, high = 0.0;
};

struct GridCarbonTable {
    std::string file;
    std::vector<GridCarbon> entries;
    const GridCarbon* find(const std::string& id) const;
};

/// Reads and checks a grid carbon file (at most model::kMaxClimateFileBytes; at most kMaxGridCarbonEntries
/// entries): every entry has an id, a region, a source, a year in 1990..2100 and 0 <= low <= base <= high <=
/// 2,000 g/kWh; ids are unique. Throws model::InputError naming the file, the entry and the field.
GridCarbonTable loadGridCarbonFile(const std::string& path);
inline constexpr std::size_t kMaxGridCarbonEntries = 10000;

/// The grid carbon table beside the current climate file (cost/climate.h climateFile()), loaded once per
/// path. Thread-safe.
std::shared_ptr<const GridCarbonTable> defaultGridCarbonTable();

} // namespace ctwin::cost
