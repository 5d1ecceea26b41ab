#include "report/report_format.h"

#include "results_json.h"
#include "scenarios.h"

#include <QDate>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace ctwin::app {

namespace {
/// "1234567.8" -> "1,234,567.8".
std::string groupThousands(const std::string& digits) {
    const auto point = digits.find('.');
    const std::string whole = digits.substr(0, point);
    std::string out;
    for (size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) out += ',';
        out += whole[i];
    }
    return point == std::string::npos ? out : out + digits.substr(point);
}
} // namespace

std::string formatMoney(double usd) {
    const double a = std::abs(usd);
    const std::string sign = usd < 0 ? "-$" : "$";
    if (a >= 1e6) {
        // Millions always with one decimal, so that columns of them line up.
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", a / 1e6);
        return sign + groupThousands(buf) + "M";
    }
    // Cents from $1 to $100 (always two decimals, so "$2.00" beside "$2.50"), four decimals below $1
    // (token prices such as $0.0234 per million), grouped whole dollars above.
    char buf[64];
    if (a > 0 && a < 1)
        std::snprintf(buf, sizeof buf, "%.4f", a);
    else if (a >= 1 && a < 100)
        std::snprintf(buf, sizeof buf, "%.2f", a);
    else
        return sign + cost::formatHuman(a, "");
    return sign + buf;
}

std::string formatMillions(double usd) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", std::abs(usd) / 1e6);
    const std::string s = groupThousands(buf);
    return usd < 0 && s != "0.0" ? "-" + s : s;
}

std::string formatPercent(double fraction, int decimals) {
    // More decimals (up to 4) for a small non-zero value that would print as 0.0%, e.g. an IRR of -0.03%.
    const double pct = fraction * 100.0;
    while (decimals < 4 && pct != 0.0 && std::abs(pct) < 0.5 * std::pow(10.0, -decimals))
        ++decimals;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%%", decimals, pct);
    return buf;
}

using cost::isPercentFigure;

std::string formatFigureValue(const std::string& key, double value, const std::string& unit) {
    if (unit.rfind("USD", 0) == 0) return formatMoney(value) + unit.substr(3);
    if (isPercentFigure(key)) return formatPercent(value);
    return cost::formatHuman(value, unit);
}

std::string formatFigure(const cost::Figure& f) {
    return formatFigureValue(f.key, f.value, f.unit);
}

std::string formatFigureOf(const cost::Results& results, const std::string& key) {
    const auto* f = results.figure(key);
    return f ? formatFigure(*f) : "n/a";
}

std::string capexCategoryLabel(const std::string& category) {
    // The category names of SPEC.md §4.4.
    static const std::map<std::string, std::string> labels = {
        {"compute", "Accelerators and compute"},
        {"scale_up_network", "Scale-up network"},
        {"scale_out_network", "Scale-out network switches"},
        {"optics_cables", "Optics and cables"},
        {"storage", "Storage"},
        {"power", "Power infrastructure"},
        {"cooling", "Cooling infrastructure"},
        {"building", "Building, shell and land"},
        {"scale_across", "Scale-across (WAN)"},
        {"integration", "Integration and validation"},
    };
    auto it = labels.find(category);
    return it == labels.end() ? category : it->second;
}

std::string analystCategoryLabel(const std::string& group) {
    // The groups of cost::kAnalystCapexCategories (evaluate_capex.cpp gives the mapping).
    static const std::map<std::string, std::string> labels = {
        {"gpus", "GPUs"},
        {"other_it", "Other IT (CPUs and host trays)"},
        {"networking", "Networking"},
        {"storage", "Storage"},
        {"power", "Power"},
        {"cooling", "Cooling"},
        {"shell", "Shell"},
        {"other", "Other (integration and land)"},
    };
    auto it = labels.find(group);
    return it == labels.end() ? group : it->second;
}

std::string tcoConventionLabel(const std::string& convention) {
    if (convention == "economic") return "Economic (capital recovery at WACC)";
    if (convention == "accounting") return "Accounting (straight-line depreciation)";
    return convention;
}

std::string assetClassLabel(const std::string& assetClass) {
    if (assetClass == "land") return "Land";
    if (assetClass == "it") return "IT equipment";
    if (assetClass == "network") return "Network";
    if (assetClass == "facility") return "Facility";
    return assetClass;
}

std::vector<std::string> assetClassCategories(const std::string& assetClass) {
    if (assetClass == "it") return {"compute", "scale_up_network", "storage", "integration"};
    if (assetClass == "network") return {"scale_out_network", "optics_cables", "scale_across"};
    // Facility is power + cooling + building less site land (land is not depreciated, evaluate_finance.cpp);
    // assetClassMatchesCategories then tells a spreadsheet the sum is not the class's capex when land > 0.
    if (assetClass == "facility") return {"power", "cooling", "building"};
    return {};
}

bool assetClassMatchesCategories(const cost::AssetClass& assetClass, const cost::CapexResult& capex) {
    const auto categories = assetClassCategories(assetClass.name);
    if (categories.empty()) return false;
    double sum = 0;
    for (const auto& c : categories) {
        auto it = capex.byCategory.find(c);
        if (it == capex.byCategory.end()) return false;
        sum += it->second.value();
    }
    return std::abs(sum - assetClass.capex.value()) <= 1e-9 * std::max(1.0, std::abs(sum));
}

std::string reportDate(const std::string& date) {
    return date.empty() ? QDate::currentDate().toString(Qt::ISODate).toStdString() : date;
}

std::vector<SiteEnergy> energyBySite(const cost::Results& results) {
    std::vector<SiteEnergy> out;
    for (const auto& b : results.power.buildings) {
        auto it =
            std::find_if(out.begin(), out.end(), [&](const SiteEnergy& s) { return s.siteId == b.siteId; });
        if (it == out.end()) {
            SiteEnergy s;
            s.siteId = b.siteId;
            s.tariffUsdPerKwh = units::toUsdPerKwh(b.tariff);
            s.tariff = results.input("sites." + b.siteId + ".electricity_usd_per_kwh");
            if (s.tariff) {
                using cost::InputLevel;
                switch (s.tariff->level) {
                case InputLevel::Override:
                    s.basis = "override";
                    break;
                case InputLevel::Entity:
                    s.basis = "site field";
                    break;
                case InputLevel::Design:
                    s.basis = "design assumption";
                    break;
                case InputLevel::Default:
                    s.basis = "default assumption";
                    break;
                }
            }
            out.push_back(s);
            it = out.end() - 1;
        }
        // One Julian year of the building's operating facility power (units::years(1) in the engine).
        const double mwh = b.facilityOperating.value() * units::kHoursPerYear / 1e6;
        it->mwhPerYear += mwh;
        it->usdPerYear += mwh * 1e3 * units::toUsdPerKwh(b.tariff);
    }
    return out;
}

} // namespace ctwin::app
