#pragma once
// Turns a failed ncu run into the error a user can act on: counter permission, unknown metric
// names, the program's own error, ncu's "==ERROR==" lines (quoted, with the log path), a child
// that never ran the session, nothing profiled.

#include <string>
#include <vector>

#include "collect/ncu/ncu_command.hpp"
#include "collect/ncu/ncu_log.hpp"
#include "subprocess/reexec_runner.hpp"

namespace kscope::ncu {

/// Everything known after ncu returned.
struct NcuRunFacts {
  subprocess::ReexecOutcome outcome;
  subprocess::ChildMarker marker;
  NcuLog log;
  NcuPaths paths;
  std::vector<std::string> metrics;  ///< requested metrics
  bool report_exists = false;
};

/// Throws the matching kscope error when the run failed; returns when the report can be read.
void diagnose_ncu_run(const NcuRunFacts& facts);

/// nsight-python's text for metric names ncu does not know: "Invalid value ['x'] for 'metrics'
/// parameter ..." plus `detail` and where to look them up.
[[nodiscard]] std::string invalid_metrics_message(const std::vector<std::string>& metrics,
                                                  const std::string& detail);

}  // namespace kscope::ncu
