#pragma once
// Number formatting shared by the config labels, CSV, JSON-adjacent text and the console table.

#include <string>

namespace kscope {

/// Shortest decimal text that reads back to the same double ("0.1", "1e+20", "nan", "inf").
[[nodiscard]] std::string format_shortest(double x);

/// `digits` significant digits, no exponent for 1e-4 <= |x| < 1e15 ("12345.7", "0.000123").
[[nodiscard]] std::string format_significant(double x, int digits);

}  // namespace kscope
