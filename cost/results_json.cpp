#include "results_json.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace ctwin::cost {

using ojson = nlohmann::ordered_json;

ojson resultsToJson(const Results& r) {
    ojson out = ojson::object();
    for (const auto& f : r.figures) {
        ojson* node = &out;
        std::string key = f.key;
        size_t dot;
        while ((dot = key.find('.')) != std::string::npos) {
            node = &(*node)[key.substr(0, dot)];
            key = key.substr(dot + 1);
        }
        (*node)[key] = std::isfinite(f.value) ? f.value : 0.0;
    }
    ojson rules = ojson::array();
    for (const auto& rule : r.rules)
        rules.push_back(ojson{{"severity", severityName(rule.severity)},
                              {"rule", rule.rule},
                              {"entity", rule.entity},
                              {"message", rule.message}});
    out["rules"] = std::move(rules);
    return out;
}

std::string formatHuman(double v, const std::string& unit) {
    const double a = std::abs(v);
    const bool integral = a == std::floor(a) && a < 1e15;
    const int decimals = integral || a >= 1e4 ? 0 : a < 1 ? 4 : a < 100 ? 2 : 1;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, a);
    std::string digits(buf);
    const auto point = digits.find('.');
    std::string whole = digits.substr(0, point), frac = point == std::string::npos ? "" : digits.substr(point);
    std::string grouped;
    for (size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
        grouped += whole[i];
    }
    return (v < 0 ? "-" : "") + grouped + frac + (unit.empty() ? "" : " " + unit);
}

std::string resultsToText(const Results& r) {
    std::ostringstream s;
    std::string section;
    for (const auto& f : r.figures) {
        const std::string head = f.key.substr(0, f.key.find('.'));
        if (f.key.rfind("capex.share.", 0) == 0) continue; // shares print beside the categories
        if (head != section) {
            section = head;
            s << "\n" << section << "\n";
        }
        char line[256];
        std::string value = formatHuman(f.value, f.unit);
        if (f.key.rfind("capex.by_category_usd.", 0) == 0) {
            const std::string cat = f.key.substr(std::string("capex.by_category_usd.").size());
            if (const auto* share = r.figure("capex.share." + cat)) {
                char pct[32];
                std::snprintf(pct, sizeof pct, "  (%.1f%%)", share->value * 100);
                value += pct;
            }
        }
        std::snprintf(line, sizeof line, "  %-34s %s\n", f.label.c_str(), value.c_str());
        s << line;
    }
    s << "\nrules\n";
    if (r.rules.empty()) s << "  (none)\n";
    for (const auto& rule : r.rules)
        s << "  " << severityName(rule.severity) << "  [" << rule.entity << "] " << rule.message << "\n";
    return s.str();
}

} // namespace ctwin::cost
