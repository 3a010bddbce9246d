#pragma once
// The parent's side of the re-execution protocol: run the program again under an external tool
// with the child marker in its environment, wait, and collect the child's report. What the
// outcome means (the tool's own errors) is for the tool to decide; check_child_outcome covers
// what every re-executing tool has in common.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "subprocess/child_marker.hpp"
#include "subprocess/child_report.hpp"
#include "subprocess/process_runner.hpp"

namespace kscope::subprocess {

struct ReexecRequest {
  /// The external tool, its options and then the program with its arguments.
  std::vector<std::string> argv;
  /// Which session the child runs and where it reports.
  ChildMarker marker;
  /// Further environment for the child (tool settings).
  std::vector<std::pair<std::string, std::string>> environment;
  /// Stop the tool after this long; nullopt: wait as long as it takes.
  std::optional<std::chrono::milliseconds> timeout;
  /// Copy the child's stderr to ours as it arrives (the user sees its progress and errors).
  bool echo_stderr = true;
};

struct ReexecOutcome {
  ProcessResult process;
  /// nullopt when the child never reached the marked session (or never started).
  std::optional<ChildReport> report;
};

/// Runs the request. A report left by an earlier run at the marker's path is removed first, so
/// that a child that dies early cannot be mistaken for one that finished.
[[nodiscard]] ReexecOutcome run_reexec(const ReexecRequest& request);

/// The checks every re-executing tool makes after its own: throws the child's error again (same
/// kscope error class, message prefixed with `tool`), kscope::ToolError with the stderr tail when
/// the process failed, and when the child never ran the marked session.
void check_child_outcome(const ReexecOutcome& outcome, const ChildMarker& marker,
                         const std::string& tool);

}  // namespace kscope::subprocess
