#pragma once
// What ncu's log (--log-file) says: its "==ERROR==" and "==WARNING==" lines, its last "==PROF=="
// progress lines and the conditions kscope explains to the user.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::ncu {

struct NcuLog {
  std::vector<std::string> errors;    ///< "==ERROR== " lines, prefix removed
  std::vector<std::string> warnings;  ///< "==WARNING== " lines, prefix removed
  bool counter_permission_denied = false;  ///< ERR_NVGPUCTRPERM
  bool no_kernels_profiled = false;        ///< "No kernels were profiled"
  /// Metric names from "Failed to find metric <name>" errors.
  std::vector<std::string> unknown_metrics;
  bool unknown_metric_error = false;       ///< any "Failed to find metric" error
  /// The last "==PROF== " lines (prefix removed), oldest first: which kernel ncu was profiling
  /// ("Profiling \"vadd_kernel\" - 4: 0%....50%") when something went wrong.
  std::vector<std::string> progress_tail;
};

/// How many "==PROF==" lines NcuLog::progress_tail keeps.
inline constexpr std::size_t kNcuProgressTailLines = 6;

[[nodiscard]] NcuLog parse_ncu_log(std::string_view text);
/// Reads and parses `path`; an absent file gives an empty log.
[[nodiscard]] NcuLog read_ncu_log(const std::string& path);

}  // namespace kscope::ncu
