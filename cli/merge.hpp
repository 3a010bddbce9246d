#pragma once
// kscope merge: joins the shards of one sweep (results or journals) into one result.

#include <CLI/CLI.hpp>

namespace kscope::cli {

void add_merge(CLI::App& app);

}  // namespace kscope::cli
