#pragma once
// Options::resume: what a journal of an interrupted run of the same sweep already holds, and what
// is left to measure. A config counts as done when every measured run of it finished and it did
// not fail; its runs, records and telemetry are carried over unchanged, every other config is
// measured again from its first run, so the resumed result equals one uninterrupted sweep.

#include <memory>
#include <string_view>
#include <vector>

#include "core/logger.hpp"
#include "core/session.hpp"
#include "kscope/results.hpp"
#include "report/journal.hpp"

namespace kscope {

struct ResumePlan {
  std::vector<Config> to_measure;       ///< the configs left, with their indices in the sweep
  Session::Output carried;              ///< runs and records of the configs done
  std::vector<RunTelemetry> telemetry;  ///< telemetry of the configs done
};

/// Reads `options.resume` and checks that it is a journal of this sweep: the same session name,
/// configs and measurement options (output and display options may differ). Throws
/// InvalidArgument naming the option, the journal and the first difference; FileFormatError
/// when the journal cannot be read.
[[nodiscard]] ResumePlan plan_resume(std::string_view name, const std::vector<Config>& configs,
                                     const Options& options, const Logger& log);

/// The session's journal at d.journal_path. With `resume` it is first written beside it (the
/// journal resumed may be that very path) with the carried part, then moved there, so that a
/// crash never leaves neither.
[[nodiscard]] std::unique_ptr<report::JournalWriter> open_journal(const Results::Data& d,
                                                                  const ResumePlan* resume);

/// The session's output with the carried part in front, records and runs in sweep order.
[[nodiscard]] Session::Output merge_resumed(ResumePlan plan, Session::Output measured);

}  // namespace kscope
