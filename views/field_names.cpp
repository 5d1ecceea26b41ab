#include "field_names.h"

#include "assumption_values.h"

#include <QHash>
#include <QLocale>
#include <cmath>
#include <map>
#include <string_view>

namespace ctwin::views {

namespace {

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Keys whose plain-words form is not just the key without its unit (design fields and assumptions).
const QHash<QString, QString>& names() {
    static const QHash<QString, QString> n = {
        // design fields
        {"electricity_usd_per_kwh", QStringLiteral("electricity price")},
        {"lat_deg", QStringLiteral("latitude")},
        {"lon_deg", QStringLiteral("longitude")},
        {"free_cooling_hours_per_year", QStringLiteral("free-cooling hours")},
        {"climate_location", QStringLiteral("climate location")},
        {"grid_interconnect_mw", QStringLiteral("grid interconnect")},
        {"grid_interconnect_date", QStringLiteral("grid interconnect date")},
        {"power_oversubscription_ratio", QStringLiteral("oversubscription ratio")},
        {"pue_pinned", QStringLiteral("pinned PUE")},
        {"x_m", QStringLiteral("x position")},
        {"y_m", QStringLiteral("y position")},
        {"rotation_deg", QStringLiteral("rotation")},
        {"grid_m", QStringLiteral("grid")},
        {"feed_a", QStringLiteral("power feed A")},
        {"feed_b", QStringLiteral("power feed B")},
        {"cdu_type", QStringLiteral("CDU type")},
        {"cdu_count", QStringLiteral("CDU count")},
        {"cdus", QStringLiteral("CDU positions")},
        {"supply_temp_c", QStringLiteral("supply temperature")},
        {"delta_t_k", QStringLiteral("ΔT")},
        {"port_bit_per_s", QStringLiteral("port speed")},
        {"capacity_bit_per_s", QStringLiteral("capacity")},
        {"fiber_lease_usd_per_m_year", QStringLiteral("fiber lease")},
        {"route_length_m", QStringLiteral("route length")},
        {"latency_budget_s", QStringLiteral("latency budget")},
        {"mfu", QStringLiteral("MFU")},
        {"tp", QStringLiteral("tensor parallelism")},
        {"pp", QStringLiteral("pipeline parallelism")},
        {"dp", QStringLiteral("data parallelism")},
        {"ep", QStringLiteral("expert parallelism")},
        {"kv_heads", QStringLiteral("KV heads")},
        {"kv_bytes_per_element", QStringLiteral("KV bytes per element")},
        {"kv_offload", QStringLiteral("KV offload tiers")},
        {"gpus", QStringLiteral("GPUs")},
        {"target_tokens_per_s_per_user", QStringLiteral("target tokens/s per user")},
        {"price_usd_per_m_input_tokens", QStringLiteral("input token price ($/M)")},
        {"price_usd_per_m_cached_input_tokens", QStringLiteral("cached input token price ($/M)")},
        {"price_usd_per_m_output_tokens", QStringLiteral("output token price ($/M)")},
        {"licence_revenue_share", QStringLiteral("licence share of revenue")},
        {"model_licence_revenue_share", QStringLiteral("model licence share of revenue")},
        // assumptions (data/assumptions.json)
        {"wacc", QStringLiteral("WACC")},
        {"tax_rate", QStringLiteral("tax rate")},
        {"it_useful_life_years", QStringLiteral("IT useful life")},
        {"network_useful_life_years", QStringLiteral("network useful life")},
        {"facility_useful_life_years", QStringLiteral("facility useful life")},
        {"maintenance_fraction", QStringLiteral("maintenance")},
        {"it_maintenance_fraction", QStringLiteral("IT hardware support")},
        {"network_maintenance_fraction", QStringLiteral("network support")},
        {"facility_maintenance_fraction", QStringLiteral("facility maintenance")},
        {"it_residual_fraction", QStringLiteral("IT residual value")},
        {"network_residual_fraction", QStringLiteral("network residual value")},
        {"facility_residual_fraction", QStringLiteral("facility residual value")},
        {"staff_usd_per_mw_year", QStringLiteral("staff cost per MW")},
        {"insurance_rate_of_capex_per_year", QStringLiteral("insurance (share of capex)")},
        {"property_tax_rate_of_capex_per_year", QStringLiteral("property tax (share of capex)")},
        {"software_usd_per_gpu_year", QStringLiteral("software licences per GPU-year")},
        {"climate_hourly_spread_factor", QStringLiteral("hourly climate spread (x fitted)")},
        {"horizon_years", QStringLiteral("horizon")},
        {"building_shell_usd_per_w", QStringLiteral("building shell cost")},
        {"integration_fraction", QStringLiteral("integration share")},
        {"gpu_hour_price_usd", QStringLiteral("GPU-hour price")},
        {"delivery_to_revenue_days", QStringLiteral("delivery to revenue")},
        {"misc_facility_fraction", QStringLiteral("misc facility load")},
        {"spare_fraction_target", QStringLiteral("spare rack target")},
        {"sdc_extra_rollback_intervals", QStringLiteral("SDC extra rollback intervals")},
    };
    return n;
}

/// A number with up to six significant digits and no exponent for ordinary magnitudes.
QString number(double x) {
    if (x != 0 && (std::abs(x) >= 1e9 || std::abs(x) < 1e-4)) return QLocale::c().toString(x, 'g', 6);
    QString s = QLocale::c().toString(x, 'f', 6);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    }
    return s;
}

/// Scales a value to the largest unit of `units` (factor, symbol; ascending) it reaches.
QString scaled(double x, std::initializer_list<std::pair<double, const char*>> units) {
    std::pair<double, const char*> pick = *units.begin();
    for (const auto& u : units)
        if (std::abs(x) >= u.first) pick = u;
    return number(x / pick.first) + QLatin1Char(' ') + QString::fromUtf8(pick.second);
}

} // namespace

QString fieldName(const std::string& key) {
    if (const auto it = names().constFind(QString::fromStdString(key)); it != names().constEnd()) return *it;
    std::string k = key;
    for (std::string_view suffix : {"_usd_per_kwh", "_usd_per_m_year", "_hours_per_year", "_bit_per_s",
                                    "_bytes", "_usd", "_years", "_deg", "_w", "_m", "_c", "_k", "_s"})
        if (endsWith(k, suffix)) {
            k.resize(k.size() - suffix.size());
            break;
        }
    return QString::fromStdString(k).replace(QLatin1Char('_'), QLatin1Char(' '));
}

QString describeValue(const std::string& key, const nlohmann::ordered_json& v) {
    if (v.is_boolean()) return v.get<bool>() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        return s.empty() ? QStringLiteral("none") : QString::fromStdString(s);
    }
    if (!v.is_number()) return QString::fromStdString(v.dump());
    const double x = v.get<double>();
    if (endsWith(key, "_usd_per_kwh")) return QStringLiteral("$%1/kWh").arg(number(x));
    if (endsWith(key, "_usd_per_m_year")) return QStringLiteral("$%1/m/yr").arg(number(x));
    if (endsWith(key, "_usd"))
        return QLatin1Char('$') +
               scaled(x, {{1, ""}, {1e3, "K"}, {1e6, "M"}, {1e9, "B"}}).remove(QLatin1Char(' '));
    if (endsWith(key, "_bit_per_s")) return scaled(x, {{1, "b/s"}, {1e9, "Gb/s"}, {1e12, "Tb/s"}});
    if (endsWith(key, "_bytes")) return scaled(x, {{1, "B"}, {1e9, "GB"}, {1e12, "TB"}, {1e15, "PB"}});
    if (endsWith(key, "_w")) return scaled(x, {{1, "W"}, {1e3, "kW"}, {1e6, "MW"}, {1e9, "GW"}});
    if (endsWith(key, "_m")) return scaled(x, {{1, "m"}, {1e3, "km"}});
    if (endsWith(key, "_deg")) return number(x) + QStringLiteral("°");
    if (endsWith(key, "_c")) return number(x) + QStringLiteral(" °C");
    if (endsWith(key, "_k")) return number(x) + QStringLiteral(" K");
    if (endsWith(key, "_s")) return number(x * 1e3) + QStringLiteral(" ms");
    if (endsWith(key, "_years")) return number(x) + QStringLiteral(" years");
    return number(x);
}

QString describeAssumptionValue(double x, const std::string& unitText) {
    const std::string_view unit = cost::assumptionUnitProper(unitText);
    // Fractions and rates read as percentages ("WACC 11%"); a ratio such as a PUE or a COP factor does not.
    const bool fraction = unitText.rfind("fraction", 0) == 0;
    if (fraction) return number(x * 100) + QLatin1Char('%');
    if (unit == "1/year") return number(x * 100) + QStringLiteral("%/yr");
    if (unit == "1") return number(x);
    if (unit.rfind("USD/", 0) == 0)
        return QLatin1Char('$') + number(x) + QLatin1Char('/') +
               QString::fromUtf8(unit.substr(4).data(), static_cast<qsizetype>(unit.size() - 4));
    if (unit == "USD") return describeValue("_usd", x);
    if (unit == "degC") return number(x) + QStringLiteral(" °C");
    if (unit.empty()) return number(x);
    return number(x) + QLatin1Char(' ') + QString::fromUtf8(unit.data(), static_cast<qsizetype>(unit.size()));
}

} // namespace ctwin::views
