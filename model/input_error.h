#pragma once
#include <stdexcept>
#include <string>

namespace ctwin::model {

/// Where a bad value sits: file, entity (id and name) and field. Every input error names all it knows.
struct InputLocation {
    std::string file;
    std::string entityKind; // "rack", "catalog item", "assumption"
    std::string entityId;
    std::string entityName;
    std::string field;
};

/// A file or value the user gave cannot be used. The message is complete and meant for the user.
class InputError : public std::runtime_error {
public:
    InputError(InputLocation where, const std::string& problem);
    const InputLocation& where() const { return m_where; }
    const std::string& problem() const { return m_problem; }

private:
    InputLocation m_where;
    std::string m_problem;
};

std::string describeLocation(const InputLocation& where);

} // namespace ctwin::model
