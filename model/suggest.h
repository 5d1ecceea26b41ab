#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ctwin::model {

/// " (did you mean 'lat_deg'?)" for the candidate closest to `key` by edit distance (Levenshtein) when it
/// is close enough to be a typo (at most max(2, |key| / 3) edits; cost/assumption_values.cpp uses it too);
/// "" otherwise. Every "unknown key" message of the loaders and of --set appends it.
std::string didYouMean(std::string_view key, const std::vector<std::string>& candidates);

} // namespace ctwin::model
