// Fuzz target: the --set PATH=VALUE parser and override checks (cost::parseInputOverride,
// checkInputOverride, InputResolver) against a shipped reference design. Each input line is one override;
// any input either fails with model::InputError or resolves, and an accepted value lies within its range
// (an assumption's min/max of data/assumptions.json, an entity field's entry of data/field_ranges.json).
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "assumption_values.h"
#include "design_json.h"
#include "field_traits.h"
#include "fuzz_support.h"
#include "input_error.h"
#include "input_resolver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    using namespace ctwin;
    static const model::Project design = model::loadProjectJson(
        std::string(CTWIN_SOURCE_DATA_DIR) + "/reference/two-site-wan.json", &fuzz::catalog());
    if (size > 4096) return 0;
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    cost::InputOverrides overrides;
    std::string line;
    try {
        while (std::getline(lines, line)) overrides.push_back(cost::parseInputOverride(line, "--set"));
        const cost::InputResolver resolver(design, fuzz::defaults(), overrides);
        for (const auto& o : overrides) {
            if (!std::isfinite(o.value)) fuzz::finding("a non-finite override was accepted: " + o.path);
            if (o.path.rfind("assumptions.", 0) == 0) {
                const auto& a = resolver.assumptions().at(o.path.substr(12));
                if (!cost::assumptionValueProblem(a, o.value).empty())
                    fuzz::finding("an assumption override outside its valid range was accepted: " + o.path);
            } else {
                // COLLECTION.ID.FIELD: the collection before the first dot, the field after the last.
                std::string collection = o.path.substr(0, o.path.find('.'));
                if (collection == "jobs") collection = "training_jobs";
                if (collection == "services") collection = "inference_services";
                const auto kind = model::entityKindFromCollectionKey(collection);
                const model::Bounds* b =
                    kind ? model::findFieldRange(*kind, o.path.substr(o.path.rfind('.') + 1)) : nullptr;
                if (!b) fuzz::finding("an override of a field without a range was accepted: " + o.path);
                if (!model::rangeProblem(o.value, *b).empty())
                    fuzz::finding("an entity override outside its field range was accepted: " + o.path);
            }
        }
    } catch (const model::InputError&) {
    }
    return 0;
}
