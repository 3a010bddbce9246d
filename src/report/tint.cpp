#include "report/tint.hpp"

namespace kscope::report {

std::string tinted(const std::string& text, Tint tint) {
  const char* start = "";
  switch (tint) {
    case Tint::kNone: return text;
    case Tint::kBold: start = "\x1b[1m"; break;
    case Tint::kGreen: start = "\x1b[32m"; break;
    case Tint::kRed: start = "\x1b[31m"; break;
    case Tint::kYellow: start = "\x1b[33m"; break;
  }
  return start + text + "\x1b[0m";
}

}  // namespace kscope::report
