#pragma once
// `kscope compare BASE NEW [--threshold 5%] [--md] [--csv F] [--json F]`: is NEW faster than
// BASE? (docs/compare.md)

#include <CLI/CLI.hpp>

namespace kscope::cli {

/// Adds the compare subcommand to `app`.
void add_compare(CLI::App& app);

}  // namespace kscope::cli
