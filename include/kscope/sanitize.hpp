#pragma once
/// @file sanitize.hpp
/// kscope::sanitize: check a benchmark with compute-sanitizer before trusting its numbers.

#include <string_view>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/options.hpp"
#include "kscope/profile.hpp"
#include "kscope/results.hpp"

namespace kscope {

/**
 * Runs every config once under compute-sanitizer (tool "sanitizer": the program is re-executed,
 * like with tool "ncu") with the checks in `options.sanitizer.checks` (memcheck by default) and
 * returns Results whose findings() say what was found and where: annotation, config and run of
 * the kernel launch, source line when built with -lineinfo, host stack. ok() is true when
 * nothing was found. `options.tool`, `runs` and `warmup_runs` are ignored; the other options
 * (output_prefix, verbosity, reexec_argv, ...) apply as for profile().
 *
 * Calling it counts as a call of session `name`, like profile(): a program that sanitizes and
 * then profiles the same name re-runs the same way under both tools (docs/tools/sanitizer.md).
 *
 * @code
 *   auto checked = kscope::sanitize("vadd", cs, bench);
 *   if (!checked.ok()) { checked.print(std::cerr); return 1; }
 *   auto timed = kscope::profile("vadd", cs, bench, opt);
 * @endcode
 *
 * Throws as profile() does, and kscope::ToolError when compute-sanitizer is missing, does not
 * support the GPU, or the program crashed under it.
 */
[[nodiscard]] Results sanitize(std::string_view name, std::vector<Config> configs,
                               const Benchmark& fn, Options options = {});

}  // namespace kscope
