#pragma once
// `kscope import-ncu REPORT [-o results.json]`: an ncu report made elsewhere as kscope results.

#include <CLI/CLI.hpp>

namespace kscope::cli {

/// Adds the import-ncu subcommand to `app`.
void add_import_ncu(CLI::App& app);

}  // namespace kscope::cli
