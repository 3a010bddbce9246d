#pragma once
// Turns one finished run of the program under compute-sanitizer into what it found (CheckRun), or
// into the error a user can act on: compute-sanitizer does not support the device, the program
// crashed (its stderr tail), the program's own error (relayed with its kscope error class), a
// missing or unreadable report. A program that stops after compute-sanitizer found something (a
// memory error leaves the CUDA context unusable) is not an error: the findings explain it.

#include <string>

#include "collect/sanitizer/finding_attribution.hpp"
#include "collect/sanitizer/sanitizer_command.hpp"
#include "subprocess/reexec_runner.hpp"

namespace kscope::sanitizer {

/// Everything known after compute-sanitizer returned.
struct SanitizerRunFacts {
  subprocess::ReexecOutcome outcome;
  subprocess::ChildMarker marker;
  SanitizerFiles files;
  std::string check;    ///< --tool
  std::string part;     ///< which part of the session ran, for messages ("config 2")
  int print_limit = 0;  ///< --print-limit given
};

/// Reads the XML report and compute-sanitizer's log and returns what the run found; throws
/// kscope::ToolError (or the program's own error class) when the run failed.
[[nodiscard]] CheckRun interpret_sanitizer_run(const SanitizerRunFacts& facts);

/// Whether compute-sanitizer's output says it cannot run on this GPU ("Device not supported").
[[nodiscard]] bool device_not_supported(const std::string& text);

/// Whether a run whose XML report has `records` records stopped reporting at --print-limit
/// `print_limit` (0: no limit): it has that many records and its log (`log_text`) does not say
/// it found exactly that many.
[[nodiscard]] bool reached_print_limit(std::size_t records, int print_limit,
                                       const std::string& log_text);

/// The N of "ERROR SUMMARY: N errors" in compute-sanitizer's text output; -1 when absent.
[[nodiscard]] long long error_summary_count(const std::string& text);

}  // namespace kscope::sanitizer
