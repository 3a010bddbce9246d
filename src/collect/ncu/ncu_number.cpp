#include "collect/ncu/ncu_number.hpp"

#include <cstdlib>
#include <limits>
#include <string>

namespace kscope::ncu {

std::optional<double> parse_ncu_number(std::string_view text) {
  const auto b = text.find_first_not_of(" \t");
  if (b == std::string_view::npos) return std::numeric_limits<double>::quiet_NaN();
  const auto e = text.find_last_not_of(" \t");
  text = text.substr(b, e - b + 1);
  if (text == "n/a" || text == "N/A") return std::numeric_limits<double>::quiet_NaN();
  std::string digits;
  digits.reserve(text.size());
  for (char c : text) {
    if (c != ',') digits += c;
  }
  // Only decimal notation: strtod would also take "inf", "nan" and hex, which ncu never prints
  // and which would turn text attributes such as "infinite" into numbers.
  if (digits.empty() || digits.find_first_not_of("0123456789.+-eE") != std::string::npos) {
    return std::nullopt;
  }
  char* end = nullptr;
  const double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size()) return std::nullopt;
  return v;
}

}  // namespace kscope::ncu
