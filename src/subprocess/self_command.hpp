#pragma once
// The command line that starts this program again, for the tools that re-execute it under an
// external profiler (ncu, compute-sanitizer).

#include <string>
#include <vector>

#include "kscope/options.hpp"

namespace kscope::subprocess {

/// Options::reexec_argv when given; otherwise this process's executable (/proc/self/exe,
/// resolved, so that a relative argv[0] or a changed working directory do not matter) followed
/// by its arguments from /proc/self/cmdline. Throws kscope::NotSupportedError naming `tool` and
/// the cupti tool when Options::reexec_unavailable says the program cannot be re-run, and
/// kscope::ToolError when /proc cannot be read.
[[nodiscard]] std::vector<std::string> self_command(const Options& options,
                                                    const std::string& tool);

/// The NUL-separated /proc/<pid>/cmdline format split into arguments.
[[nodiscard]] std::vector<std::string> split_cmdline(const std::string& raw);

/// The error self_command throws when the program cannot be re-executed (also used by the tools'
/// option checks, which run before any work).
[[nodiscard]] std::string reexec_unavailable_message(const std::string& tool,
                                                     const std::string& reason);

}  // namespace kscope::subprocess
