#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "evaluate.h"

namespace ctwin::cost {

/// `evaluate --json`: figures nested by their dotted keys (inventory.gpus -> {"inventory":{"gpus":..}}),
/// plus `rules[]` with {severity, rule, entity, message}. Every number is finite.
nlohmann::ordered_json resultsToJson(const Results& results);

/// The human table of `evaluate`: label, value with thousands separators, unit.
std::string resultsToText(const Results& results);

/// Formats a number for people: thousands separators, sensible decimals.
std::string formatHuman(double value, const std::string& unit);

} // namespace ctwin::cost
