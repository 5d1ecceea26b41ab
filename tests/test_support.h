#pragma once
// The shipped catalog and default assumptions (the source tree's data/), loaded once per program; shared by
// the engine tests and the benchmarks, which get CTWIN_SOURCE_DATA_DIR from tests/CMakeLists.txt and
// tests/bench/CMakeLists.txt.
#include "catalog.h"
#include "design_json.h"

#include <fstream>
#include <functional>
#include <string>

#include "input_error.h"

namespace ctwin::test_support {

inline const std::string kData = CTWIN_SOURCE_DATA_DIR;

inline const model::Catalog& catalog() {
    static const model::Catalog c = model::loadCatalogDirectory(kData + "/catalog");
    return c;
}

inline const model::AssumptionSet& defaults() {
    static const model::AssumptionSet a = model::loadAssumptionsFile(kData + "/assumptions.json");
    return a;
}

/// A shipped reference design by name ("llama3-16k-h100"), read against the shipped catalog.
inline model::Project reference(const std::string& name) {
    return model::loadProjectJson(kData + "/reference/" + name + ".json", &catalog());
}

/// The message of the model::InputError `f` throws, or "" when it throws none.
inline std::string inputErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const model::InputError& e) {
        return e.what();
    }
    return {};
}

/// Writes `bytes` to `path` as they are (a test's input file).
inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

} // namespace ctwin::test_support
