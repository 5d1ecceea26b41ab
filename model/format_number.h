#pragma once
#include <string>

namespace ctwin::model {

/// A number as the loaders' and --set's messages print it (ostream default: 6 significant digits, e.g.
/// "101", "0.065", "1e+308").
std::string formatNumber(double v);

} // namespace ctwin::model
