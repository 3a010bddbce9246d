#pragma once
// profile() for the re-executing tools (ncu, compute-sanitizer): the parent never measures on the
// GPU (a sharded parent only holds its lock); the tool re-runs the program, the child runs the
// session, and the parent turns the tool's report into the same Results an in-process session
// gives.

#include <optional>
#include <string_view>
#include <vector>

#include "api/sweep_plan.hpp"
#include "collect/tool_registry.hpp"
#include "kscope/profile.hpp"

namespace kscope {

/// Runs session (`name`, `id`) of the sweep `configs` with `tool` (which has make_external) over
/// `plan.to_measure`, then extraction and statistics as for in-process tools. Each part
/// the tool hands over is journaled at once (the measurements do not exist in this process
/// before the tool's report of that part has been read). A sharded process holds the lock of
/// GPU `gpu_uuid` (the one its child measures on; empty: none) while the tool runs.
[[nodiscard]] Results profile_external(const ToolEntry& tool, std::string_view name, int id,
                                       const std::vector<Config>& configs, const Options& options,
                                       SweepPlan plan, const std::string& gpu_uuid);

}  // namespace kscope
