#pragma once
// Shared by the fuzz targets: the shipped catalog and assumptions, loaded once, and a finding reporter.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "catalog.h"
#include "design_json.h"

namespace ctwin::fuzz {

inline const model::Catalog& catalog() {
    static const model::Catalog c = model::loadCatalogDirectory(std::string(CTWIN_SOURCE_DATA_DIR) + "/catalog");
    return c;
}

inline const model::AssumptionSet& defaults() {
    static const model::AssumptionSet a =
        model::loadAssumptionsFile(std::string(CTWIN_SOURCE_DATA_DIR) + "/assumptions.json");
    return a;
}

/// A property the target checks does not hold: print and abort, so libFuzzer saves the input.
[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "FINDING: %s\n", what.c_str());
    std::abort();
}

} // namespace ctwin::fuzz
