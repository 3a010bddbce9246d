#include "core/number_format.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace kscope {
namespace {

// std::to_chars never consults the locale (snprintf does: under a comma-decimal LC_NUMERIC it
// writes "1,5"). With a precision it lays digits out as printf would in the "C" locale.
std::string to_text(double x, std::chars_format format, int precision) {
  char buf[400];  // fixed notation of DBL_MAX with precision 17 and sign: ~330 characters
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, format, precision);
  if (ec != std::errc()) return "nan";  // only when buf is too small, which it is not
  return std::string(buf, end);
}

std::string to_text(double x, std::chars_format format) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, format);
  if (ec != std::errc()) return "nan";
  return std::string(buf, end);
}

}  // namespace

std::string format_shortest(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  // Shortest round-trip digits, laid out like Python's repr (what pandas writes to CSV):
  // fixed notation for exponents -4..15 with at least one decimal, scientific otherwise.
  const std::string scientific = to_text(x, std::chars_format::scientific);
  const std::size_t e = scientific.find('e');
  int exponent = 0;
  std::from_chars(scientific.data() + e + (scientific[e + 1] == '+' ? 2 : 1),
                  scientific.data() + scientific.size(), exponent);
  if (exponent < -4 || exponent >= 16) return scientific;
  const std::string mantissa = scientific.substr(0, e);
  const int digits = static_cast<int>(std::count_if(mantissa.begin(), mantissa.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; }));
  std::string out = to_text(x, std::chars_format::fixed, std::max(digits - 1 - exponent, 0));
  if (out.find('.') == std::string::npos) out += ".0";
  return out;
}

std::string format_significant(double x, int digits) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  const double ax = std::fabs(x);
  if (x == 0 || (ax >= 1e-4 && ax < 1e15)) {
    const int magnitude = x == 0 ? 0 : static_cast<int>(std::floor(std::log10(ax)));
    return format_fixed(x, std::max(0, digits - 1 - magnitude));
  }
  return to_text(x, std::chars_format::scientific, digits - 1);
}

std::string format_fixed(double x, int decimals) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return to_text(x, std::chars_format::fixed, decimals);
}

std::string format_general(double x, int precision) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return to_text(x, std::chars_format::general, precision);
}

}  // namespace kscope
