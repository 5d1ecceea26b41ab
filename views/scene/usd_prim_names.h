#pragma once
#include <string>
#include <unordered_set>

namespace ctwin::views {

/// Prim names for a USD export. A prim name must be a USD identifier: ASCII letters, digits and
/// underscores, not starting with a digit (OpenUSD, SdfPath::IsValidIdentifier; the AOUSD Core
/// specification's identifier rule), and unique among its siblings. Design ids are free text ("rack-1",
/// "Hall 2", "1a"), so they are sanitised, and two ids that sanitise alike ("rack-1", "rack_1") get
/// suffixes ("rack_1", "rack_1_2"). The original id goes into a `clustertwin:id` attribute, so nothing is
/// lost.
class UsdPrimNames {
public:
    /// `raw` as an identifier: every other character becomes '_' (a UTF-8 sequence becomes one '_'), a
    /// leading digit gets a '_' before it, and an empty result is `fallback`.
    static std::string sanitize(const std::string& raw, const std::string& fallback = "unnamed");

    /// A sanitized name for `raw` that no earlier call gave under the same `parentPath` ("/Campus/Site_a").
    std::string unique(const std::string& parentPath, const std::string& raw,
                       const std::string& fallback = "unnamed");

private:
    std::unordered_set<std::string> m_taken; // "parentPath/name"
};

} // namespace ctwin::views
