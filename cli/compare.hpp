#pragma once
// `kscope compare BASE NEW [--threshold 5%] [--md] [--csv F] [--json F]`: is NEW faster than
// BASE? (docs/compare.md)

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace kscope::cli {

/// Adds the compare subcommand to `app`.
void add_compare(CLI::App& app);

/// "5%" -> 0.05, "0.05" -> 0.05; throws kscope::InvalidArgument naming --threshold otherwise.
[[nodiscard]] double parse_threshold(const std::string& text);

}  // namespace kscope::cli
