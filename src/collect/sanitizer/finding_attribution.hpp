#pragma once
// Where each finding happened. compute-sanitizer's report names the kernel of a finding, not the
// annotation, config or run of its launch, and the re-executed child cannot watch its own
// launches (kscope's in-process CUPTI must stay off under compute-sanitizer). So the sanitizer
// tool learns where a finding happened by running the program again with less of it:
//   1. the whole sweep, each config once: nothing found -> clean, done (one run per check);
//   2. each config alone: a finding there belongs to that config (and its single run);
//   3. within that run, children stopped at annotation boundaries (entry or exit of an
//      annotation, subprocess/child_scope.hpp): a finding present when the child stopped at
//      boundary b but not at boundary b-1 was launched between the two, i.e. inside the
//      annotation entered at b-1, or outside any. Boundaries are bisected, so a run with k
//      annotations needs about log2(2k+1) extra runs per place where something was found.
// Findings are matched across runs by signature (what was found and where in the code, not the
// addresses). Leaks are placed by their allocation's host stack: allocated inside kscope's
// session (the benchmark) means a leak of that config's run; anything else was allocated by the
// program outside the session and is not the benchmark's (the child ends at the session's end).
// CUDA API calls that failed in a run with an error in a kernel are that error's consequences:
// they keep their config and run, attribution "run", and are not narrowed down.
// This file is the logic over those runs; SanitizerTool runs them.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kscope/results.hpp"
#include "subprocess/child_report.hpp"
#include "subprocess/child_scope.hpp"

namespace kscope::sanitizer {

/// What one compute-sanitizer run of the program reported.
struct CheckRun {
  std::vector<Finding> findings;                   ///< report order, leaks included
  std::vector<subprocess::AnnotationEntry> trace;  ///< annotations the child entered, in order
  bool reported = true;     ///< the child wrote its report (else trace is unknown)
  std::string ended_early;  ///< why the child's session ended before its end ("" when it did not)
  bool truncated = false;   ///< compute-sanitizer hit its print limit
};

/// Runs the program under compute-sanitizer with `check` over the part of the session `scope`
/// names. Throws the errors a user can act on (the program's own error when nothing was found).
using CheckRunner =
    std::function<CheckRun(const std::string& check, const subprocess::ChildScope& scope)>;

/// The findings of one check, placed.
struct CheckOutcome {
  std::vector<Finding> findings;   ///< attributed; report order within each run
  std::vector<std::string> notes;  ///< things the user should know (printed as warnings)
  bool truncated = false;          ///< some run hit the print limit
  std::size_t program_runs = 0;    ///< how many times the program was run
};

/// Runs `check` over a sweep of `num_configs` configs through `runner` and attributes every
/// finding to annotation, config and run as described above.
[[nodiscard]] CheckOutcome attribute_check(const std::string& check, std::size_t num_configs,
                                           const CheckRunner& runner);

/// Identity of a finding across runs of the program: check, kind, kernel, code location, thread
/// and size; not addresses, counts or host stacks.
[[nodiscard]] std::string finding_signature(const Finding& f);

/// Whether a leak was allocated inside kscope's session (its host stack passes through
/// kscope::Session), i.e. by the benchmark during a run.
[[nodiscard]] bool allocated_in_session(const Finding& leak);

/// Findings of a child stopped at annotation boundary `boundary` (1 .. 2k).
using BoundaryProbe = std::function<std::vector<Finding>(std::size_t boundary)>;

/// Places the findings of one run (`full`: what the child that ran the whole run found, in report
/// order, leaks excluded) between the annotation boundaries of that run, whose annotations were
/// entered in the order `annotations`. Sets `annotation` and `attribution` ("annotation" or
/// "outside"); config and run are the caller's.
[[nodiscard]] std::vector<Finding> place_in_run(const std::vector<Finding>& full,
                                                const std::vector<std::string>& annotations,
                                                const BoundaryProbe& probe);

}  // namespace kscope::sanitizer
