#pragma once
#include <QString>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ctwin::views {

/// Names a person would say for stored keys, for undo labels, the history and the assumptions panel:
/// "electricity_usd_per_kwh" -> "electricity price", "wacc" -> "WACC". Keys without an entry fall back to
/// the key without its unit suffix, underscores as spaces ("power_capacity_w" -> "power capacity").
QString fieldName(const std::string& key);

/// A stored value as a person would write it, with the unit its key carries: ("electricity_usd_per_kwh",
/// 0.065) -> "$0.065/kWh", ("power_capacity_w", 1.2e7) -> "12 MW", ("rack_type", "gb200-nvl72") ->
/// "gb200-nvl72", (true) -> "yes".
QString describeValue(const std::string& key, const nlohmann::ordered_json& value);

/// An assumption's value as a person would write it, from the assumption's unit (data/assumptions.json):
/// (0.11, "1/year") -> "11%/yr", (0.85, "fraction") -> "85%", (0.065, "USD/kWh") -> "$0.065/kWh",
/// (5, "years") -> "5 years", (1.2, "ratio") -> "1.2".
QString describeAssumptionValue(double value, const std::string& unit);


} // namespace ctwin::views
