#pragma once
// `kscope show PATH [-f FORMAT] [-o FILE] [--compare BASE]`: a saved result or journal as a
// table, or in another output format (docs/outputs.md).

#include <CLI/CLI.hpp>

namespace kscope::cli {

/// Adds the show subcommand to `app`.
void add_show(CLI::App& app);

}  // namespace kscope::cli
