#pragma once
// `kscope check-metrics`: validates metric names against a chip's catalogue (with suggestions
// for unknown ones) and prints how many replay passes the set needs.

#include <CLI/CLI.hpp>

namespace kscope::cli {

/// Registers the subcommand on `app`.
void add_check_metrics(CLI::App& app);

}  // namespace kscope::cli
