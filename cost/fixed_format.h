#pragma once
// The engine's one fixed-point number format for rule and provenance messages (evaluate.cpp).
#include <string>

namespace ctwin::cost::detail {

/// `v` with `decimals` digits after the point (printf "%.*f"); a value that rounds to zero prints as 0, not
/// -0.
std::string fmt(double v, int decimals = 0);

} // namespace ctwin::cost::detail
