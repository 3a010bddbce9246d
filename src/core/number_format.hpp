#pragma once
// Number formatting shared by the config labels, CSV, JSON-adjacent text and the console table.
// Independent of the C locale: a host process that called setlocale(LC_ALL, "") under a
// comma-decimal locale still gets "1.5", never "1,5".

#include <string>

namespace kscope {

/// Shortest decimal text that reads back to the same double ("0.1", "1e+20", "nan", "inf").
[[nodiscard]] std::string format_shortest(double x);

/// `digits` significant digits, no exponent for 1e-4 <= |x| < 1e15 ("12345.7", "0.000123").
[[nodiscard]] std::string format_significant(double x, int digits);

/// `decimals` digits after the point, as printf's "%.*f" in the "C" locale ("50.00").
[[nodiscard]] std::string format_fixed(double x, int decimals);

/// `precision` significant digits, as printf's "%.*g" in the "C" locale ("1.5", "1e+20").
[[nodiscard]] std::string format_general(double x, int precision);

}  // namespace kscope
