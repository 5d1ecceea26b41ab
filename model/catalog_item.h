#pragma once
#include <map>
#include <optional>
#include <string>

namespace ctwin::model {

/// A sourced catalog figure: base with a low/high range (data/FORMAT.md §1).
struct CatalogValue {
    double base = 0.0;
    double low = 0.0;
    double high = 0.0;
    std::string source;
    bool estimate = false;
    bool operator==(const CatalogValue&) const = default;
};

/// A component of the price book: a GPU, a rack type, a switch, an optic, a CDU, power gear, a failure class.
struct CatalogItem {
    std::string id;
    std::string name;
    std::string category; // file stem: "racks", "switches", ...
    std::string kind;     // "compute", "switch", "cdu", ...
    std::map<std::string, std::string> attributes;
    std::map<std::string, CatalogValue> values;

    /// Base value of a field; throws InputError naming item and field when missing.
    double value(const std::string& field) const;
    const CatalogValue* find(const std::string& field) const;
    std::string attribute(const std::string& key) const;
    bool operator==(const CatalogItem&) const = default;
};

} // namespace ctwin::model
