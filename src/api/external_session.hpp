#pragma once
// profile() for the re-executing tools (ncu, compute-sanitizer): the parent never touches the
// GPU; the tool re-runs the program, the child runs the session, and the parent turns the
// tool's report into the same Results an in-process session gives.

#include <string_view>
#include <vector>

#include "collect/tool_registry.hpp"
#include "kscope/profile.hpp"

namespace kscope {

/// Runs session (`name`, `id`) with `tool` (which has make_external), then extraction and
/// statistics as for in-process tools. The journal is written once the tool's report has been
/// read (the measurements do not exist in this process before).
[[nodiscard]] Results profile_external(const ToolEntry& tool, std::string_view name, int id,
                                       const std::vector<Config>& configs, const Options& options);

}  // namespace kscope
