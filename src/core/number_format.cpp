#include "core/number_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kscope {

std::string format_shortest(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  // Shortest round-trip digits, laid out like Python's repr (what pandas writes to CSV):
  // fixed notation for exponents -4..15 with at least one decimal, scientific otherwise.
  char buf[48];
  int digits = 1;
  for (; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  const int exponent = std::atoi(std::strchr(buf, 'e') + 1);
  if (exponent < -4 || exponent >= 16) return buf;
  std::snprintf(buf, sizeof buf, "%.*f", std::max(digits - 1 - exponent, 0), x);
  std::string out = buf;
  if (out.find('.') == std::string::npos) out += ".0";
  return out;
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
