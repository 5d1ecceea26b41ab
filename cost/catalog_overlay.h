#pragma once
// User catalog overlays (data/FORMAT.md §8.4): a JSON file that replaces sourced values of existing catalog
// items, e.g. the efficiency factors `clustertwin-cli calibrate` fits to measured serving runs.
#include "calibration.h"
#include "catalog.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ctwin::cost {

inline constexpr const char* kCatalogOverlayFormat = "clustertwin-catalog-overlay";
/// The overlay schema this build reads and writes (data/FORMAT.md §8.4); an overlay without one is version 1.
inline constexpr int kCatalogOverlaySchemaVersion = 1;

/// The catalog with the overlay's values applied. Every overlaid item must exist and every value must be a
/// field the item already has; a value gives base and source (low/high default to the item's own range) and
/// the item is re-checked against the catalog schema (ranges, sources, efficiency bounds). Errors name the
/// overlay file, the item and the field.
model::Catalog applyCatalogOverlay(const model::Catalog& catalog, const nlohmann::json& overlay,
                                   const std::string& file);
/// Reads and applies an overlay file (malformed JSON or a missing file: InputError naming it).
model::Catalog applyCatalogOverlayFile(const model::Catalog& catalog, const std::string& file);

/// Metadata of one calibration, written beside the values it produced.
struct CalibrationSource {
    std::string pointsFile;
    std::string date; // YYYY-MM-DD (UTC)
    std::string model;
    int points = 0;
};

/// The overlay `calibrate --out` writes: the accelerator's fitted (identified) factors, each with its catalog
/// range and a source naming the points file, date, point count and RMS error before/after.
nlohmann::ordered_json calibrationOverlay(const model::CatalogItem& accelerator, const CalibrationResult& r,
                                          const CalibrationSource& source);

} // namespace ctwin::cost
