#pragma once
// What ncu's log (--log-file) says: its "==ERROR==" and "==WARNING==" lines and the conditions
// kscope explains to the user.

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
};

[[nodiscard]] NcuLog parse_ncu_log(std::string_view text);
/// Reads and parses `path`; an absent file gives an empty log.
[[nodiscard]] NcuLog read_ncu_log(const std::string& path);

}  // namespace kscope::ncu
