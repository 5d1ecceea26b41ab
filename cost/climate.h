#pragma once
// The typical-year climate table (data/climate.json): monthly mean dry-bulb and wet-bulb and an ASHRAE design
// (peak) condition per location, and the choice of a location for a site (nearest by geodesic distance on
// WGS84, or named by the site's `climate_location`). Pure C++ (nlohmann_json); no Qt.

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace ctwin::model {
struct Site;
}

namespace ctwin::cost {

/// One location of the table. Temperatures in degC.
struct ClimateLocation {
    std::string id;
    std::string name;
    double latDeg = 0.0, lonDeg = 0.0;
    std::string station;
    std::string source;
    std::array<double, 12> dryBulbC{};
    std::array<double, 12> dewPointC{};
    /// Computed by the loader from dryBulbC and dewPointC (wetBulbStullC).
    std::array<double, 12> wetBulbC{};
    /// ASHRAE 0.4% annual cooling dry-bulb and 0.4% evaporation wet-bulb (each exceeded ~35 h a year; not
    /// coincident).
    double designDryBulbC = 0.0, designWetBulbC = 0.0;
    std::string designSource;
    /// Hourly spread (K) around each monthly mean, fitted by the loader (fitHourlySpreadK) so that the design
    /// value is exceeded kDesignExceedanceHours a year: the place's own climate, not one spread everywhere.
    double sigmaDryBulbK = 0.0, sigmaWetBulbK = 0.0;
};

struct ClimateTable {
    /// The file it was read from (for messages).
    std::string file;
    std::vector<ClimateLocation> locations;

    const ClimateLocation* find(const std::string& id) const;
    /// The location nearest to (lat, lon) by geodesic distance (cost/geodesy.h); nullptr for an empty table.
    const ClimateLocation* nearest(double latDeg, double lonDeg) const;
};

/// Days of each month of a non-leap year, and their hours (sum 8,760 h).
inline constexpr std::array<int, 12> kDaysPerMonth = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

/// Hours a year an ASHRAE 0.4 % design value is exceeded: 0.004 x 8,760 h (ASHRAE Handbook-Fundamentals
/// 2021 ch. 14: annual percentiles of the hourly record).
inline constexpr double kDesignExceedanceHours = 0.004 * 8760.0;
/// Bounds of a fitted hourly spread, K: below 0.3 K the monthly normal is a step; 15 K is beyond any
/// station's hourly standard deviation about its monthly mean.
inline constexpr double kMinHourlySpreadK = 0.3, kMaxHourlySpreadK = 15.0;

/// The hourly spread sigma (K) for which 12 monthly normals N(mean_m, sigma) put kDesignExceedanceHours a
/// year above `designC`: sum_m hours_m (1 - Phi((design - mean_m)/sigma)) = 35.04 h, solved by bisection
/// (the sum grows with sigma while the design lies above every monthly mean) to 1e-4 K in at most 60 steps,
/// within [kMinHourlySpreadK, kMaxHourlySpreadK]. A design value at or below a monthly mean (no sigma gives
/// 35 h) gets the lower bound.
double fitHourlySpreadK(const std::array<double, 12>& monthlyMeanC, double designC);

/// Beyond this distance the nearest climate location is reported as another climate (rule
/// climate_location_far): 500 km spans a climate zone's width at mid latitudes.
inline constexpr double kClimateNearestMaxKm = 500.0;

/// Relative humidity (%) from dry-bulb and dew point by the Magnus formula with the Alduchov & Eskridge
/// (1996, J. Appl. Meteor. 35:601) coefficients: e_s(T) = 6.1094 exp(17.625 T / (T + 243.04)) hPa,
/// RH = 100 e_s(Td) / e_s(T).
double relativeHumidityPercent(double dryBulbC, double dewPointC);
/// Wet-bulb temperature (degC) from dry-bulb (degC) and relative humidity (%), Stull (2011), "Wet-Bulb
/// Temperature from Relative Humidity and Air Temperature", J. Appl. Meteor. Climatol. 50:2267, eq. 1:
///   Tw = T atan(0.151977 (RH + 8.313659)^0.5) + atan(T + RH) - atan(RH - 1.676331)
///        + 0.00391838 RH^1.5 atan(0.023101 RH) - 4.686035
/// valid for RH 5-99% and -20..50 degC at sea-level pressure, within about +-1 K. RH is clamped to 5-99%.
double wetBulbStullC(double dryBulbC, double relativeHumidityPercent);

/// Reads a climate table. Throws model::InputError naming the file, the location and the field for a
/// missing or malformed value (a month missing, a dew point above the dry-bulb, a duplicate id, ...).
ClimateTable loadClimateFile(const std::string& path);

/// The climate file the engine uses: set by the application from its data directory (app/data_paths);
/// until set, $CTWIN_DATA_DIR/climate.json when that variable is set, else the source tree's
/// data/climate.json.
void setClimateFile(const std::string& path);
std::string climateFile();
/// The table of climateFile(), loaded once per path (thread-safe). Throws model::InputError when the file
/// cannot be read.
std::shared_ptr<const ClimateTable> defaultClimateTable();

/// The location a site uses: its `climate_location` when set (nullptr when the table has no such id),
/// else the nearest to its coordinates.
const ClimateLocation* climateLocationFor(const model::Site& site, const ClimateTable& table);

/// Throws model::InputError (file `designFile`, the site, field climate_location) when a site names a
/// climate location the table does not have. The CLI calls it after loading a design (exit 3); the engine
/// reports the same as a design-rule error and falls back to the nearest location.
void checkClimateLocations(const std::vector<model::Site>& sites, const ClimateTable& table,
                           const std::string& designFile);

} // namespace ctwin::cost
