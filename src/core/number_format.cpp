#include "core/number_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kscope {

std::string format_shortest(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

std::string format_significant(double x, int digits) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  const double ax = std::fabs(x);
  char buf[64];
  if (x == 0 || (ax >= 1e-4 && ax < 1e15)) {
    const int magnitude = x == 0 ? 0 : static_cast<int>(std::floor(std::log10(ax)));
    const int decimals = std::max(0, digits - 1 - magnitude);
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  } else {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  }
  return buf;
}

}  // namespace kscope
