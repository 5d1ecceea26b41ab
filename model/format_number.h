#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace ctwin::model {

/// A number as the loaders' and --set's messages print it (ostream default: 6 significant digits, e.g.
/// "101", "0.065", "1e+308"; negative zero prints as 0).
std::string formatNumber(double v);

/// A number typed by a person (--set, sweep ends, CLI options, CSV cells): the whole text in decimal
/// notation, an optional sign, digits with an optional point, an optional exponent ("0.1", "-2", "+5",
/// "1e-3", ".5"), and a finite double. Anything else gives nullopt: white space, a comma, hexadecimal
/// ("0x1p-3"), "inf", "nan", and a literal beyond a double either way ("1e400", "1e-400"). Independent of
/// the C locale (the desktop app runs under the user's locale).
std::optional<double> parseDecimal(std::string_view text);

} // namespace ctwin::model
