#include "explore_spec.h"
#include "input_file.h"

#include "design_json.h"
#include "design_spec.h"
#include "input_error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace ctwin::cost {

using ojson = nlohmann::ordered_json;

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& entity, const std::string& field,
                       const std::string& problem) {
    throw model::InputError(model::InputLocation{file, "explore spec", entity, "", field}, problem);
}

/// Rejects keys other than `known` (and "comment") in an object.
void onlyKeys(const ojson& j, const std::set<std::string>& known, const std::string& file,
              const std::string& entity, const std::string& where) {
    if (!j.is_object()) fail(file, entity, where, "must be an object");
    for (const auto& [k, v] : j.items())
        if (k != "comment" && !known.count(k)) {
            std::string list;
            for (const auto& x : known)
                list += (list.empty() ? "" : ", ") + x;
            fail(file, entity, where.empty() ? k : where + "." + k, "unknown key (known: " + list + ")");
        }
}

std::string text(const ojson& j, const char* key, const std::string& file, const std::string& entity,
                 bool required = true) {
    if (!j.contains(key)) {
        if (required) fail(file, entity, key, "missing");
        return {};
    }
    if (!j.at(key).is_string() || j.at(key).get<std::string>().empty())
        fail(file, entity, key, "must be a non-empty string");
    return j.at(key).get<std::string>();
}

std::optional<double> number(const ojson& j, const char* key, const std::string& file,
                             const std::string& entity) {
    if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
    if (!j.at(key).is_number()) fail(file, entity, key, "must be a number");
    const double v = j.at(key).get<double>();
    if (!std::isfinite(v)) fail(file, entity, key, "must be finite");
    return v;
}

std::uint64_t whole(const ojson& j, const char* key, std::uint64_t min, std::uint64_t max,
                    const std::string& file, const std::string& entity) {
    const auto v = number(j, key, file, entity);
    if (!v || *v != std::floor(*v) || *v < static_cast<double>(min) || *v > static_cast<double>(max))
        fail(file, entity, key,
             "must be a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return static_cast<std::uint64_t>(*v);
}

bool flag(const ojson& j, const char* key, bool fallback, const std::string& file) {
    if (!j.contains(key)) return fallback;
    if (!j.at(key).is_boolean()) fail(file, "", key, "must be true or false");
    return j.at(key).get<bool>();
}

ExploreChoice choiceFromJson(const ojson& j, const std::string& file, size_t index) {
    const std::string entity = "choices[" + std::to_string(index) + "]";
    onlyKeys(j, {"name", "field", "set", "values", "range"}, file, entity, "");
    ExploreChoice c;
    c.name = text(j, "name", file, entity);
    c.field = text(j, "field", file, c.name, false);
    c.set = text(j, "set", file, c.name, false);
    if (c.field.empty() == c.set.empty())
        fail(file, c.name, "field",
             "give exactly one of `field` (edit the base document) or `set` (an override)");
    if (j.contains("values") == j.contains("range"))
        fail(file, c.name, "values",
             "give exactly one of `values` (a list) or `range` ({min, max, step|count})");
    if (j.contains("values")) {
        const auto& v = j.at("values");
        if (!v.is_array() || v.empty()) fail(file, c.name, "values", "must be a non-empty list");
        if (v.size() > kMaxChoiceLevels)
            fail(file, c.name, "values", "more than " + std::to_string(kMaxChoiceLevels) + " levels");
        for (const auto& x : v) {
            if (!(x.is_number() || x.is_string() || x.is_boolean()))
                fail(file, c.name, "values", "levels are numbers, strings or booleans, got " + x.dump());
            if (!c.set.empty() && !x.is_number())
                fail(file, c.name, "values", "an override (`set`) takes numbers, got " + x.dump());
            if (x.is_number() && !std::isfinite(x.get<double>()))
                fail(file, c.name, "values", "must be finite");
            for (const auto& y : c.levels)
                if (y == nlohmann::json(x))
                    fail(file, c.name, "values", "level " + x.dump() + " given twice");
            c.levels.emplace_back(x);
        }
    } else {
        const auto& r = j.at("range");
        onlyKeys(r, {"min", "max", "step", "count"}, file, c.name, "range");
        const auto lo = number(r, "min", file, c.name), hi = number(r, "max", file, c.name);
        if (!lo || !hi) fail(file, c.name, "range", "needs min and max");
        std::optional<int> count;
        if (r.contains("count"))
            count = static_cast<int>(whole(r, "count", 0, kMaxChoiceLevels, file, c.name + ".range"));
        for (double x : rangeLevels(*lo, *hi, number(r, "step", file, c.name), count, file, c.name))
            c.levels.emplace_back(x);
    }
    return c;
}

} // namespace

const char* exploreMethodName(ExploreMethod method) {
    switch (method) {
    case ExploreMethod::Exhaustive:
        return "exhaustive";
    case ExploreMethod::LatinHypercube:
        return "latin_hypercube";
    case ExploreMethod::Random:
        return "random";
    }
    return "exhaustive";
}

std::vector<double> rangeLevels(double min, double max, std::optional<double> step, std::optional<int> count,
                                const std::string& file, const std::string& choice) {
    if (!(min <= max))
        fail(file, choice, "range",
             "empty range: min " + std::to_string(min) + " > max " + std::to_string(max));
    if (step.has_value() == count.has_value())
        fail(file, choice, "range", "give exactly one of step or count");
    std::vector<double> out;
    if (step) {
        if (!(*step > 0)) fail(file, choice, "range.step", "must be > 0");
        const double n = std::floor((max - min) / *step + 1e-9) + 1;
        if (n > static_cast<double>(kMaxChoiceLevels))
            fail(file, choice, "range.step",
                 "more than " + std::to_string(kMaxChoiceLevels) + " levels; use a larger step");
        for (int i = 0; i < static_cast<int>(n); ++i)
            out.push_back(min + i * *step);
    } else {
        if (*count < 1) fail(file, choice, "range.count", "empty range: count must be at least 1");
        if (*count == 1) return {min};
        if (min == max) fail(file, choice, "range", "min == max with count > 1 gives the same level twice");
        for (int i = 0; i < *count; ++i)
            out.push_back(i == *count - 1 ? max : min + (max - min) * i / (*count - 1));
    }
    // Rounded to 12 significant digits, so 0.05 + 4 x 0.01 is the level 0.09 a person typed, not
    // 0.09000000000000001 (levels are inputs shown in results and passed to --set).
    for (double& x : out) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.12g", x);
        x = std::strtod(buf, nullptr);
    }
    return out;
}

ExploreSpec exploreSpecFromJson(const ojson& j, const std::string& file) {
    onlyKeys(j,
             {"format", "spec_version", "name", "base", "generator", "scale_services_to_design",
              "reject_rule_errors", "reject_missed_service_targets", "choices", "constraints", "objectives", "report", "search"},
             file, "", "");
    if (text(j, "format", file, "") != kExploreSpecFormat)
        fail(file, "", "format", std::string("must be \"") + kExploreSpecFormat + "\"");
    if (!j.contains("spec_version") || j.at("spec_version") != kExploreSpecVersion)
        fail(file, "", "spec_version", "must be " + std::to_string(kExploreSpecVersion));
    ExploreSpec s;
    s.file = file;
    s.name = text(j, "name", file, "");
    if (j.contains("base") == j.contains("generator"))
        fail(file, "", "base",
             "give exactly one of `base` (a design or generator spec file) or `generator` "
             "(an inline generator spec)");
    if (j.contains("base")) {
        std::filesystem::path p = text(j, "base", file, "");
        if (p.is_relative()) p = std::filesystem::path(file).parent_path() / p;
        s.baseFile = p.lexically_normal().string();
        try {
            s.base = model::readJsonFile(s.baseFile);
        } catch (const model::InputError& e) { // the spec's field, then the file's own problem
            fail(file, "", "base", e.what());
        }
    } else {
        s.base = j.at("generator");
        s.baseFile = file + " (generator)";
        if (!s.base.is_object()) fail(file, "", "generator", "must be an object");
    }
    s.baseIsGeneratorSpec =
        s.base.is_object() && s.base.value("format", std::string()) == kGeneratorSpecFormat;
    s.scaleServicesToDesign = flag(j, "scale_services_to_design", false, file);
    s.rejectRuleErrors = flag(j, "reject_rule_errors", true, file);
    s.rejectMissedServiceTargets = flag(j, "reject_missed_service_targets", true, file);

    if (!j.contains("choices") || !j.at("choices").is_array() || j.at("choices").empty())
        fail(file, "", "choices", "must be a non-empty list");
    std::set<std::string> names;
    for (const auto& c : j.at("choices")) {
        s.choices.push_back(choiceFromJson(c, file, s.choices.size()));
        if (!names.insert(s.choices.back().name).second)
            fail(file, s.choices.back().name, "name", "choice name given twice");
    }

    if (j.contains("constraints")) {
        if (!j.at("constraints").is_array()) fail(file, "", "constraints", "must be a list");
        std::map<std::string, const ExploreConstraint*> byFigure;
        for (const auto& c : j.at("constraints")) {
            const std::string entity = "constraints[" + std::to_string(s.constraints.size()) + "]";
            onlyKeys(c, {"name", "figure", "min", "max"}, file, entity, "");
            ExploreConstraint k;
            k.figure = text(c, "figure", file, entity);
            k.name = c.contains("name") ? text(c, "name", file, entity) : k.figure;
            k.min = number(c, "min", file, k.name);
            k.max = number(c, "max", file, k.name);
            if (!k.min && !k.max) fail(file, k.name, "min", "a constraint needs min, max or both");
            s.constraints.push_back(k);
        }
        // Contradictory bounds on one figure: nothing can be feasible, say which two constraints clash.
        for (size_t a = 0; a < s.constraints.size(); ++a)
            for (size_t b = 0; b < s.constraints.size(); ++b) {
                const auto &x = s.constraints[a], &y = s.constraints[b];
                if (x.figure == y.figure && x.min && y.max && *x.min > *y.max)
                    fail(file, x.name, "min",
                         "contradictory constraints: '" + x.name + "' needs " + x.figure +
                             " >= " + std::to_string(*x.min) + " but '" + y.name +
                             "' needs it <= " + std::to_string(*y.max));
            }
    }

    if (!j.contains("objectives") || !j.at("objectives").is_array() || j.at("objectives").empty())
        fail(file, "", "objectives", "must be a non-empty list");
    for (const auto& o : j.at("objectives")) {
        const std::string entity = "objectives[" + std::to_string(s.objectives.size()) + "]";
        onlyKeys(o, {"figure", "goal"}, file, entity, "");
        ExploreObjective x;
        x.figure = text(o, "figure", file, entity);
        const std::string goal = text(o, "goal", file, entity);
        if (goal != "minimize" && goal != "maximize")
            fail(file, entity, "goal", "must be minimize or maximize");
        x.maximize = goal == "maximize";
        for (const auto& y : s.objectives)
            if (y.figure == x.figure) fail(file, entity, "figure", "objective " + x.figure + " given twice");
        s.objectives.push_back(x);
    }
    if (j.contains("report")) {
        if (!j.at("report").is_array()) fail(file, "", "report", "must be a list of figure keys");
        for (const auto& r : j.at("report")) {
            if (!r.is_string() || r.get<std::string>().empty())
                fail(file, "", "report", "must be a list of figure keys");
            s.report.push_back(r.get<std::string>());
        }
    }
    if (j.contains("search")) {
        const auto& q = j.at("search");
        onlyKeys(q, {"method", "points", "seed", "max_exhaustive"}, file, "search", "");
        const std::string m = q.contains("method") ? text(q, "method", file, "search") : "exhaustive";
        if (m == "exhaustive")
            s.search.method = ExploreMethod::Exhaustive;
        else if (m == "latin_hypercube")
            s.search.method = ExploreMethod::LatinHypercube;
        else if (m == "random")
            s.search.method = ExploreMethod::Random;
        else
            fail(file, "search", "method", "must be exhaustive, latin_hypercube or random");
        if (s.search.method != ExploreMethod::Exhaustive)
            s.search.points = whole(q, "points", 1, kMaxExploreSamples, file, "search");
        else if (q.contains("points"))
            fail(file, "search", "points", "only a sampled method (latin_hypercube, random) takes points");
        if (q.contains("seed")) s.search.seed = whole(q, "seed", 0, (1ull << 53), file, "search");
        if (q.contains("max_exhaustive"))
            s.search.maxExhaustive = whole(q, "max_exhaustive", 1, kMaxExhaustivePoints, file, "search");
    }
    return s;
}

ExploreSpec loadExploreSpec(const std::string& path) {
    return exploreSpecFromJson(model::readJsonFile(path, model::kMaxSpecFileBytes), path);
}

} // namespace ctwin::cost
