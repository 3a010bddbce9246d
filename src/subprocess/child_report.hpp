#pragma once
// What a re-executed child hands back to its parent (one JSON file at
// ChildMarker::report_path): the runs its session executed as the session logged them, every
// annotation it entered in order (warm-up runs included, for tools that attribute by launch
// order), the device it ran on, and how it ended.

#include <optional>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/results.hpp"

namespace kscope::subprocess {

/// One annotation entered during a run of the child's session.
struct AnnotationEntry {
  std::string annotation;
  RunId run;  ///< warm-up runs have run.warmup set
};

struct ChildReport {
  std::vector<RunLog> runs;             ///< measured runs, as Session::Output::runs
  std::vector<AnnotationEntry> trace;   ///< every annotation entered, in order
  Metadata metadata;                    ///< the child's device and host
  std::string error;                    ///< what ended the session; empty on success
  std::string error_kind;               ///< subprocess::error_kind of that exception
  std::vector<ConfigFailure> failures;  ///< configs that failed with on_config_error "skip"
  double session_seconds = 0;           ///< how long the child's session ran
};

/// Writes `report` to `path` (replacing it). Throws kscope::Error naming the path on failure.
void write_child_report(const std::string& path, const ChildReport& report);

/// Reads a report; nullopt when `path` does not exist (the child never reached the session).
/// Throws kscope::Error naming the path when the file is not a complete child report.
[[nodiscard]] std::optional<ChildReport> read_child_report(const std::string& path);

}  // namespace kscope::subprocess
