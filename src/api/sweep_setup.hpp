#pragma once
// The composition root's device-free part, which profile() and profile_without_device (the CPU
// test and bench entry) share, so that both run exactly the same checks and set-up: first every
// check of the arguments, the session's call id and this process's shard (a re-run child of ncu
// or compute-sanitizer branches off after this), then the rank's output prefix and the plan.

#include <string>
#include <string_view>
#include <vector>

#include "api/sweep_plan.hpp"
#include "collect/tool_registry.hpp"
#include "core/shard.hpp"
#include "kscope/profile.hpp"

namespace kscope {

/// A checked sweep, ready to be planned (plan_checked_sweep) or run by a re-run child.
struct CheckedSweep {
  Options options;              ///< the caller's, metric names stripped of white space
  std::vector<Config> configs;  ///< the caller's, with their sweep indices set
  const ToolEntry* tool = nullptr;  ///< options.tool's entry
  int id = 0;                   ///< the session's call id, from the caller's SessionCounter
  ShardSpec shard;              ///< this process's rank (count 1: not sharded)
};

/// The call id of a session named `name`: profile() counts its calls per name in the process
/// (next_session_id); the CPU entry makes every call session 0, a process's first, so that one
/// test process can play the ranks of a sharded sweep or the process that resumes a killed one.
using SessionCounter = int (*)(const std::string& name);

/// Checks a profile() call: strips the metric names, validates the options, the session name, the
/// configs (non-empty, all of one length), the info collectors against the configs' parameter
/// names, the callable (non-empty) and the tool's own option checks; then takes the call id from
/// `count` (a refused call takes none) and resolves the shard. Throws profile()'s errors.
[[nodiscard]] CheckedSweep check_sweep(std::string_view name, std::vector<Config> configs,
                                       const Benchmark& fn, const Options& options,
                                       SessionCounter count);

/// For a sharded process, puts every file under the rank's prefix of the resolved output prefix
/// (and leaves the progress display to rank 0, unless the caller has one of its own) in
/// sweep->options; then plans what this process measures (plan_sweep).
[[nodiscard]] SweepPlan plan_checked_sweep(std::string_view name, CheckedSweep* sweep);

}  // namespace kscope
