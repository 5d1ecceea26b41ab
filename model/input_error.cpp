#include "input_error.h"

namespace ctwin::model {

std::string describeLocation(const InputLocation& w) {
    // No file (an edit in the desktop app of a design not yet saved): the entity and field say where.
    std::string s = w.file;
    if (!w.entityId.empty() || !w.entityKind.empty()) {
        if (!s.empty()) s += ": ";
        s += w.entityKind.empty() ? "entity" : w.entityKind;
        if (!w.entityId.empty()) s += " '" + w.entityId + "'";
        if (!w.entityName.empty()) s += " (" + w.entityName + ")";
    }
    if (!w.field.empty()) s += (s.empty() ? "field '" : ": field '") + w.field + "'";
    return s;
}

InputError::InputError(InputLocation where, const std::string& problem)
    : std::runtime_error(describeLocation(where).empty() ? problem : describeLocation(where) + ": " + problem),
      m_where(std::move(where)), m_problem(problem) {}

} // namespace ctwin::model
