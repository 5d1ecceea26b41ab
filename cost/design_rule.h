#pragma once
#include <string>

namespace ctwin::cost {

enum class Severity { Info, Warning, Error };
const char* severityName(Severity s);

/// A finding of the design-rule check (SPEC.md §4.10): what is wrong, how bad, and which entity.
struct DesignRule {
    Severity severity = Severity::Warning;
    std::string rule;   // stable rule id, e.g. "loop_over_capacity"
    std::string entity; // entity id the GUI selects on double-click
    std::string message;
};

} // namespace ctwin::cost
