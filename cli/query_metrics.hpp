#pragma once
// `kscope query-metrics`: lists the metrics of a chip (or of the GPU present) with type, unit
// and description, like `ncu --query-metrics`.

#include <CLI/CLI.hpp>

namespace kscope::cli {

/// Registers the subcommand on `app`.
void add_query_metrics(CLI::App& app);

}  // namespace kscope::cli
