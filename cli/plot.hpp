#pragma once
// `kscope plot` belongs to the Python package (python/kscope/_plot_command.py): the Python
// `kscope` command runs it and hands every other subcommand to this executable. It is listed
// here so that `kscope --help` names it; run from this executable it says where it lives.

#include <CLI/CLI.hpp>

namespace kscope::cli {

/// Adds the plot subcommand's entry to `app`.
void add_plot(CLI::App& app);

}  // namespace kscope::cli
