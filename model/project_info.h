#pragma once
#include <string>
#include <vector>

namespace ctwin::model {

/// Title block of a design: what it models and where its figures come from.
struct ProjectInfo {
    std::string id;
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    std::string currency = "USD";

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.text("description", description);
        v.texts("sources", sources);
        v.choice("currency", currency, {"USD"});
    }
};

} // namespace ctwin::model
