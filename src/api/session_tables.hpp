#pragma once
// What every path of profile() does the same way, whichever tool measured: the Results header
// of a session, the start of its files, and its end (tables, journal, CSV files).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/logger.hpp"
#include "api/resume.hpp"
#include "core/session.hpp"
#include "core/host_times.hpp"
#include "report/journal.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// A Results::Data with the session's name, call id, options, parameter names and configs.
[[nodiscard]] Results::Data session_data(std::string_view name, int id, const Options& options,
                                         const std::vector<Config>& configs);

/// The tables of a finished session (core/result_tables.hpp) with its failed configs in
/// d->failures (set d->telemetry first); warns with failure_summary() when configs failed. Takes
/// what `out` holds but its records, which it only reads (the journal's last line may still read
/// them too: it shares them).
void fill_tables(Session::Output& out, const Logger& log, Results::Data* d);

/// The start of every session's files, whichever tool measures: resolves the output prefix
/// (returned), names the journal in d->journal_path and opens it (with what `resume` carries
/// over), and prints the header box and the journal's path.
[[nodiscard]] std::string start_session(Results::Data* d, const std::vector<Config>& to_measure,
                                        const ResumePlan* resume, const Logger& log,
                                        std::unique_ptr<report::JournalWriter>* journal);

/// The end of every measuring session, in process or under an external tool, once `d` holds its
/// metadata and telemetry (what `resume` carried over included): puts what `resume` (may be null)
/// carried over in front of `out`, fills the tables from `out` as fill_tables does while
/// `journal` writes its last line, waits for the journal, warns of
/// throttled runs and, with Options::output_csv, writes the raw and processed CSV files under
/// `prefix`. With `times`, adds the fixed steps "tables", "journal finish" and "csv" and prints
/// the call's fixed cost at DEBUG.
[[nodiscard]] Results end_session(Results::Data d, Session::Output& out, ResumePlan* resume,
                                  report::JournalWriter& journal, const std::string& prefix,
                                  const Logger& log, HostTimes* times = nullptr);

}  // namespace kscope
