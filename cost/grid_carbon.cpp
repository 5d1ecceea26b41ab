#include "grid_carbon.h"

#include "climate.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"

#include <cmath>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

namespace ctwin::cost {

namespace {

model::InputError gridError(const std::string& file, const std::string& id, const std::string& field,
                            const std::string& problem) {
    return model::InputError(model::InputLocation{file, "grid carbon entry", id, id, field}, problem);
}

std::string text(const nlohmann::ordered_json& j, const char* key, const std::string& file,
                 const std::string& id) {
    if (!j.contains(key) || !j[key].is_string() || j[key].get_ref<const std::string&>().empty())
        throw gridError(file, id, key, "missing or empty text");
    return j[key].get<std::string>();
}

double number(const nlohmann::ordered_json& j, const char* key, const std::string& file,
              const std::string& id, const std::string& field) {
    if (!j.contains(key) || !j[key].is_number() || !std::isfinite(j[key].get<double>()))
        throw gridError(file, id, field, "missing or not a finite number");
    return j[key].get<double>();
}

} // namespace

const GridCarbon* GridCarbonTable::find(const std::string& id) const {
    for (const auto& e : entries)
        if (e.id == id) return &e;
    return nullptr;
}

GridCarbonTable loadGridCarbonFile(const std::string& path) {
    const std::string content = model::readInputFile(path, model::kMaxClimateFileBytes, "grid carbon file");
    nlohmann::ordered_json doc;
    try {
        doc = model::parseJson(content);
    } catch (const nlohmann::json::exception& e) {
        throw gridError(path, "", "", "not valid JSON: " + model::jsonErrorText(e));
    }
    if (!doc.is_object() || !doc.contains("locations") || !doc["locations"].is_array())
        throw gridError(path, "", "locations", "missing array 'locations'");
    const auto& list = doc["locations"];
    if (list.size() > kMaxGridCarbonEntries)
        throw gridError(path, "", "locations",
                        std::to_string(list.size()) + " entries, more than the limit of " +
                            std::to_string(kMaxGridCarbonEntries));
    GridCarbonTable table;
    table.file = path;
    std::set<std::string> ids;
    for (const auto& j : list) {
        if (!j.is_object()) throw gridError(path, "", "locations", "each entry must be an object");
        GridCarbon e;
        e.id = text(j, "id", path, "");
        if (!ids.insert(e.id).second) throw gridError(path, e.id, "id", "duplicate id");
        e.region = text(j, "grid_region", path, e.id);
        e.source = text(j, "source", path, e.id);
        const double year = number(j, "year", path, e.id, "year");
        if (year < 1990 || year > 2100 || year != std::floor(year))
            throw gridError(path, e.id, "year", "a whole year in 1990..2100");
        e.year = static_cast<int>(year);
        if (!j.contains("gco2e_per_kwh") || !j["gco2e_per_kwh"].is_object())
            throw gridError(path, e.id, "gco2e_per_kwh", "missing object {base, low, high}");
        const auto& g = j["gco2e_per_kwh"];
        e.gco2ePerKwh = number(g, "base", path, e.id, "gco2e_per_kwh.base");
        e.low = number(g, "low", path, e.id, "gco2e_per_kwh.low");
        e.high = number(g, "high", path, e.id, "gco2e_per_kwh.high");
        // 2,000 g/kWh is above any grid's average (lignite plants emit ~1,100-1,200 g/kWh).
        if (!(e.low >= 0 && e.low <= e.gco2ePerKwh && e.gco2ePerKwh <= e.high && e.high <= 2000))
            throw gridError(path, e.id, "gco2e_per_kwh", "needs 0 <= low <= base <= high <= 2000 g/kWh");
        table.entries.push_back(std::move(e));
    }
    return table;
}

std::shared_ptr<const GridCarbonTable> defaultGridCarbonTable() {
    static std::mutex mutex;
    static std::string loadedPath;
    static std::shared_ptr<const GridCarbonTable> table;
    const std::string path =
        (std::filesystem::path(climateFile()).parent_path() / "grid_carbon.json").string();
    std::lock_guard lock(mutex);
    if (!table || loadedPath != path) {
        table = std::make_shared<const GridCarbonTable>(loadGridCarbonFile(path));
        loadedPath = path;
    }
    return table;
}

} // namespace ctwin::cost
