#include "design_rule.h"

namespace ctwin::cost {

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "error";
}

} // namespace ctwin::cost
