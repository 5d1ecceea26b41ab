#include "catalog_overlay.h"

#include "fixed_format.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ctwin::cost {

using model::InputError;
using model::InputLocation;

namespace {
double finiteNumber(const nlohmann::json& j, const char* key, const InputLocation& where) {
    if (!j[key].is_number() || !std::isfinite(j[key].get<double>()))
        throw InputError(where, std::string("'") + key + "' must be a finite number");
    return j[key].get<double>();
}
using detail::fmt; // cost/fixed_format.h
} // namespace

model::Catalog applyCatalogOverlay(const model::Catalog& catalog, const nlohmann::json& overlay,
                                   const std::string& file) {
    const InputLocation top{file, "", "", "", ""};
    if (!overlay.is_object()) throw InputError(top, "a catalog overlay must be a JSON object");
    if (!overlay.contains("format") || overlay["format"] != kCatalogOverlayFormat)
        throw InputError(InputLocation{file, "", "", "", "format"},
                         std::string("must be \"") + kCatalogOverlayFormat + "\"");
    // schema_version: absent means 1 (overlays written before it was checked); anything else must be a whole
    // number this build reads (issue 27: a newer overlay was read as if it were version 1).
    if (overlay.contains("schema_version")) {
        const auto& v = overlay["schema_version"];
        if (!v.is_number_integer())
            throw InputError(InputLocation{file, "", "", "", "schema_version"}, "must be a whole number");
        if (v.get<std::int64_t>() != kCatalogOverlaySchemaVersion)
            throw InputError(InputLocation{file, "", "", "", "schema_version"},
                             "overlay schema version " + v.dump() +
                                 (v.get<std::int64_t>() > kCatalogOverlaySchemaVersion
                                      ? " is newer than this build supports (" +
                                            std::to_string(kCatalogOverlaySchemaVersion) + "); update ClusterTwin"
                                      : " is not valid (this build reads " +
                                            std::to_string(kCatalogOverlaySchemaVersion) + ")"));
    }
    if (!overlay.contains("items") || !overlay["items"].is_array())
        throw InputError(InputLocation{file, "", "", "", "items"}, "missing array 'items'");
    std::vector<model::CatalogItem> items = catalog.items();
    for (const auto& j : overlay["items"]) {
        if (!j.is_object() || !j.contains("id") || !j["id"].is_string())
            throw InputError(InputLocation{file, "catalog item", "", "", "id"},
                             "each overlay item needs a string id");
        const std::string id = j["id"].get<std::string>();
        auto it = std::find_if(items.begin(), items.end(), [&](const auto& i) { return i.id == id; });
        if (it == items.end())
            throw InputError(InputLocation{file, "catalog item", id, "", "id"},
                             "not in the catalog: an overlay only changes existing items");
        if (!j.contains("values") || !j["values"].is_object())
            throw InputError(InputLocation{file, "catalog item", id, it->name, "values"},
                             "missing object 'values'");
        for (const auto& [field, jv] : j["values"].items()) {
            const InputLocation where{file, "catalog item", id, it->name, field};
            auto v = it->values.find(field);
            // A rack priced from its parts: its price_usd is their sum, recomputed from the
            // overlaid parts; an overlay changes a part or system_integration_usd instead.
            if (field == "price_usd" && it->find("system_integration_usd"))
                throw InputError(where, "this rack type is priced from its parts: price_usd is their sum; "
                                        "overlay a component's price or system_integration_usd instead");
            if (v == it->values.end())
                throw InputError(where, "the item has no such value (an overlay cannot add fields)");
            if (!jv.is_object() || !jv.contains("base") || !jv.contains("source") ||
                !jv["source"].is_string() || jv["source"].get<std::string>().empty())
                throw InputError(where, "value must be {base, source[, low, high]} with a non-empty source");
            model::CatalogValue nv = v->second;
            nv.base = finiteNumber(jv, "base", where);
            if (jv.contains("low")) nv.low = finiteNumber(jv, "low", where);
            if (jv.contains("high")) nv.high = finiteNumber(jv, "high", where);
            nv.source = jv["source"].get<std::string>();
            if (jv.contains("estimate")) {
                if (!jv["estimate"].is_boolean()) throw InputError(where, "'estimate' must be true or false");
                nv.estimate = jv["estimate"].get<bool>();
            }
            v->second = nv;
        }
        model::checkCatalogItem(*it, file);
    }
    return model::Catalog(std::move(items));
}

model::Catalog applyCatalogOverlayFile(const model::Catalog& catalog, const std::string& file) {
    const std::string text = model::readInputFile(file, model::kMaxCatalogFileBytes, "catalog overlay");
    nlohmann::json doc;
    try {
        doc = model::parseJson<nlohmann::json>(text);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(InputLocation{file, "", "", "", ""},
                         "catalog overlay: malformed JSON: " + model::jsonErrorText(e));
    }
    return applyCatalogOverlay(catalog, doc, file);
}

nlohmann::ordered_json calibrationOverlay(const model::CatalogItem& accelerator, const CalibrationResult& r,
                                          const CalibrationSource& source) {
    const std::string fileName = std::filesystem::path(source.pointsFile).filename().string();
    const std::string provenance =
        "Calibrated by clustertwin-cli calibrate on " + source.date + " to " + std::to_string(source.points) +
        (source.points == 1 ? " measured serving point of " : " measured serving points of ") + source.model +
        " in " + fileName + "; RMS relative error of tokens/s/GPU " + fmt(100 * r.rmsRelativeErrorBefore, 1) +
        "% at the catalog values, " + fmt(100 * r.rmsRelativeErrorAfter, 1) + "% fitted (tokens/s/user " +
        fmt(100 * r.rmsUserErrorBefore, 1) + "% and " + fmt(100 * r.rmsUserErrorAfter, 1) + "%)";
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    const auto before = r.before.array(), after = r.after.array(), low = r.low.array(), high = r.high.array();
    for (int k = 0; k < 3; ++k) {
        if (!r.identified[k]) continue; // the points say nothing about it: the catalog value stands
        values[kFactorFields[k]] = {
            {"base", after[k]},
            {"low", low[k]},
            {"high", high[k]},
            {"source", provenance + " (catalog base " + fmt(before[k], 3) + ")" +
                           (r.atBound[k] ? "; the fit stopped at the catalog range" : "")},
            {"estimate", true}};
    }
    nlohmann::ordered_json out;
    out["format"] = kCatalogOverlayFormat;
    out["schema_version"] = kCatalogOverlaySchemaVersion;
    out["items"] = nlohmann::ordered_json::array();
    out["items"].push_back({{"id", accelerator.id}, {"values", values}});
    out["calibration"] = {{"accelerator", accelerator.id},
                          {"model", source.model},
                          {"points_file", fileName},
                          {"date", source.date},
                          {"points", source.points},
                          {"rms_relative_error_before", r.rmsRelativeErrorBefore},
                          {"rms_relative_error_after", r.rmsRelativeErrorAfter},
                          {"rms_user_error_before", r.rmsUserErrorBefore},
                          {"rms_user_error_after", r.rmsUserErrorAfter},
                          {"points_out_of_reach", r.outOfReachAfter}};
    return out;
}

} // namespace ctwin::cost
