#pragma once
// ANSI colours of the console tables and of the command's messages, for a terminal. Whether to
// use them is the caller's choice (the CLI's colour rule, cli/colour.hpp); text written to files
// never has them.

#include <string>

namespace kscope::report {

enum class Tint { kNone, kBold, kGreen, kRed, kYellow };

/// `text` between the ANSI sequence of `tint` and the reset sequence; unchanged for kNone.
[[nodiscard]] std::string tinted(const std::string& text, Tint tint);

}  // namespace kscope::report
