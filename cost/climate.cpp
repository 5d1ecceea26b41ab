#include "climate.h"

#include "geodesy.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"
#include "site.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>

namespace ctwin::cost {

using ojson = nlohmann::ordered_json;

namespace {

std::string formatC(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

model::InputError climateError(const std::string& file, const std::string& id, const std::string& name,
                               const std::string& field, const std::string& problem) {
    return model::InputError(model::InputLocation{file, "climate location", id, name, field}, problem);
}

double finiteNumber(const ojson& v, const std::string& file, const ClimateLocation& l, const std::string& field) {
    if (!v.is_number()) throw climateError(file, l.id, l.name, field, "expected a number");
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw climateError(file, l.id, l.name, field, "value is not finite");
    // Outside the range of any surface weather station's monthly or design value: a typo.
    if (d < -60.0 || d > 60.0) throw climateError(file, l.id, l.name, field, "temperature outside -60..60 degC");
    return d;
}

std::array<double, 12> months(const ojson& j, const char* key, const std::string& file, const ClimateLocation& l) {
    if (!j.contains(key)) throw climateError(file, l.id, l.name, key, "missing (12 monthly values, Jan..Dec)");
    const ojson& a = j[key];
    if (!a.is_array()) throw climateError(file, l.id, l.name, key, "expected an array of 12 monthly values");
    if (a.size() != 12)
        throw climateError(file, l.id, l.name, key,
                           "has " + std::to_string(a.size()) + " monthly values; expected 12 (Jan..Dec)");
    std::array<double, 12> out{};
    for (size_t m = 0; m < 12; ++m)
        out[m] = finiteNumber(a[m], file, l, std::string(key) + "[" + std::to_string(m) + "]");
    return out;
}

std::string text(const ojson& j, const char* key, const std::string& file, const ClimateLocation& l,
                 bool required) {
    if (!j.contains(key)) {
        if (required) throw climateError(file, l.id, l.name, key, "missing");
        return {};
    }
    if (!j[key].is_string()) throw climateError(file, l.id, l.name, key, "expected a string");
    return j[key].get<std::string>();
}

struct DefaultTable {
    std::mutex mutex;
    std::string path;
    std::shared_ptr<const ClimateTable> table;
    std::string loadedPath;
};

DefaultTable& defaultTable() {
    static DefaultTable t;
    return t;
}

std::string fallbackClimateFile() {
    if (const char* env = std::getenv("CTWIN_DATA_DIR"); env && *env) return std::string(env) + "/climate.json";
#ifdef CTWIN_SOURCE_DATA_DIR
    return std::string(CTWIN_SOURCE_DATA_DIR) + "/climate.json";
#else
    return "climate.json";
#endif
}

} // namespace

double fitHourlySpreadK(const std::array<double, 12>& monthlyMeanC, double designC) {
    auto hoursAbove = [&](double sigma) {
        double h = 0;
        for (size_t m = 0; m < 12; ++m)
            h += kDaysPerMonth[m] * 24.0 * 0.5 *
                 std::erfc((designC - monthlyMeanC[m]) / (sigma * std::sqrt(2.0)));
        return h;
    };
    double lo = kMinHourlySpreadK, hi = kMaxHourlySpreadK;
    if (!std::isfinite(designC) || hoursAbove(lo) >= kDesignExceedanceHours) return lo;
    if (hoursAbove(hi) <= kDesignExceedanceHours) return hi;
    for (int i = 0; i < 60 && hi - lo > 1e-4; ++i) {
        const double mid = 0.5 * (lo + hi);
        (hoursAbove(mid) < kDesignExceedanceHours ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double relativeHumidityPercent(double dryBulbC, double dewPointC) {
    auto es = [](double t) { return 6.1094 * std::exp(17.625 * t / (t + 243.04)); };
    return 100.0 * es(dewPointC) / es(dryBulbC);
}

double wetBulbStullC(double t, double rh) {
    rh = std::clamp(rh, 5.0, 99.0);
    return t * std::atan(0.151977 * std::sqrt(rh + 8.313659)) + std::atan(t + rh) - std::atan(rh - 1.676331) +
           0.00391838 * std::pow(rh, 1.5) * std::atan(0.023101 * rh) - 4.686035;
}

const ClimateLocation* ClimateTable::find(const std::string& id) const {
    for (const auto& l : locations)
        if (l.id == id) return &l;
    return nullptr;
}

const ClimateLocation* ClimateTable::nearest(double latDeg, double lonDeg) const {
    // Nearest by geodesic (cost/geodesy.h), which costs ~1 us a call and runs per site in every evaluation:
    // the sphere ranks the table first and only locations within kSphereToGeodesicSlack of its best are
    // measured on the ellipsoid (usually one or two), with the same answer as measuring them all.
    double closest = std::numeric_limits<double>::infinity();
    for (const auto& l : locations)
        closest = std::min(closest, sphericalDistanceM(latDeg, lonDeg, l.latDeg, l.lonDeg));
    const ClimateLocation* best = nullptr;
    double bestM = 0;
    for (const auto& l : locations) {
        if (sphericalDistanceM(latDeg, lonDeg, l.latDeg, l.lonDeg) > closest * kSphereToGeodesicSlack)
            continue;
        const double m = geodesicDistance(latDeg, lonDeg, l.latDeg, l.lonDeg).value();
        if (!best || m < bestM) best = &l, bestM = m;
    }
    return best;
}

ClimateTable loadClimateFile(const std::string& path) {
    const std::string content = model::readInputFile(path, model::kMaxClimateFileBytes, "climate file");
    ojson doc;
    try {
        doc = model::parseJson(content);
    } catch (const nlohmann::json::exception& e) {
        throw climateError(path, "", "", "", "not valid JSON: " + model::jsonErrorText(e));
    }
    if (!doc.is_object() || !doc.contains("locations") || !doc["locations"].is_array())
        throw climateError(path, "", "", "locations", "missing array 'locations'");
    ClimateTable table;
    table.file = path;
    std::set<std::string> ids;
    for (const auto& j : doc["locations"]) {
        ClimateLocation l;
        if (!j.is_object()) throw climateError(path, "", "", "locations", "each location must be an object");
        l.id = text(j, "id", path, l, true);
        if (l.id.empty()) throw climateError(path, "", "", "id", "every location needs a non-empty id");
        if (!ids.insert(l.id).second) throw climateError(path, l.id, "", "id", "duplicate location id");
        l.name = text(j, "name", path, l, true);
        l.station = text(j, "station", path, l, false);
        l.source = text(j, "source", path, l, true);
        if (l.source.empty()) throw climateError(path, l.id, l.name, "source", "every location cites its source");
        for (const char* k : {"lat_deg", "lon_deg"})
            if (!j.contains(k) || !j[k].is_number())
                throw climateError(path, l.id, l.name, k, "missing or not a number");
        l.latDeg = j["lat_deg"].get<double>();
        l.lonDeg = j["lon_deg"].get<double>();
        if (!(l.latDeg >= -90 && l.latDeg <= 90))
            throw climateError(path, l.id, l.name, "lat_deg", "latitude outside -90..90");
        if (!(l.lonDeg >= -180 && l.lonDeg <= 180))
            throw climateError(path, l.id, l.name, "lon_deg", "longitude outside -180..180");
        l.dryBulbC = months(j, "dry_bulb_c", path, l);
        l.dewPointC = months(j, "dew_point_c", path, l);
        for (size_t m = 0; m < 12; ++m) {
            if (l.dewPointC[m] > l.dryBulbC[m] + 1e-9)
                throw climateError(path, l.id, l.name, "dew_point_c[" + std::to_string(m) + "]",
                                   "dew point " + formatC(l.dewPointC[m]) + " degC above the dry-bulb " +
                                       formatC(l.dryBulbC[m]) + " degC");
            l.wetBulbC[m] = wetBulbStullC(l.dryBulbC[m], relativeHumidityPercent(l.dryBulbC[m], l.dewPointC[m]));
        }
        if (!j.contains("design") || !j["design"].is_object())
            throw climateError(path, l.id, l.name, "design", "missing object {dry_bulb_c, wet_bulb_c, source}");
        const ojson& d = j["design"];
        for (const char* k : {"dry_bulb_c", "wet_bulb_c"})
            if (!d.contains(k)) throw climateError(path, l.id, l.name, std::string("design.") + k, "missing");
        l.designDryBulbC = finiteNumber(d["dry_bulb_c"], path, l, "design.dry_bulb_c");
        l.designWetBulbC = finiteNumber(d["wet_bulb_c"], path, l, "design.wet_bulb_c");
        if (l.designWetBulbC > l.designDryBulbC)
            throw climateError(path, l.id, l.name, "design.wet_bulb_c", "design wet-bulb above the design dry-bulb");
        l.designSource = text(d, "source", path, l, true);
        l.sigmaDryBulbK = fitHourlySpreadK(l.dryBulbC, l.designDryBulbC);
        l.sigmaWetBulbK = fitHourlySpreadK(l.wetBulbC, l.designWetBulbC);
        table.locations.push_back(std::move(l));
    }
    if (table.locations.empty()) throw climateError(path, "", "", "locations", "no locations");
    return table;
}

void setClimateFile(const std::string& path) {
    auto& t = defaultTable();
    std::lock_guard lock(t.mutex);
    t.path = path;
}

std::string climateFile() {
    auto& t = defaultTable();
    std::lock_guard lock(t.mutex);
    return t.path.empty() ? fallbackClimateFile() : t.path;
}

std::shared_ptr<const ClimateTable> defaultClimateTable() {
    auto& t = defaultTable();
    std::lock_guard lock(t.mutex);
    const std::string path = t.path.empty() ? fallbackClimateFile() : t.path;
    if (!t.table || t.loadedPath != path) {
        t.table = std::make_shared<const ClimateTable>(loadClimateFile(path));
        t.loadedPath = path;
    }
    return t.table;
}

const ClimateLocation* climateLocationFor(const model::Site& site, const ClimateTable& table) {
    if (!site.climateLocation.empty()) return table.find(site.climateLocation);
    return table.nearest(site.latDeg, site.lonDeg);
}

void checkClimateLocations(const std::vector<model::Site>& sites, const ClimateTable& table,
                           const std::string& designFile) {
    for (const auto& s : sites)
        if (!s.climateLocation.empty() && !table.find(s.climateLocation))
            throw model::InputError(model::InputLocation{designFile, "site", s.id, s.name, "climate_location"},
                                    "unknown climate location '" + s.climateLocation + "' (not in " + table.file +
                                        "; leave it empty for the nearest location)");
}

} // namespace ctwin::cost
