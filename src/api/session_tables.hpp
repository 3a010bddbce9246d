#pragma once
// What every path of profile() does the same way, whichever tool measured: the Results header
// of a session, the tables built from the session's output, and the CSV files.

#include <string>
#include <string_view>
#include <vector>

#include "core/logger.hpp"
#include "core/session.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// A Results::Data with the session's name, call id, options, parameter names and configs.
[[nodiscard]] Results::Data session_data(std::string_view name, int id, const Options& options,
                                         const std::vector<Config>& configs);

/// The tables of a finished session (core/result_tables.hpp) with its failed configs in
/// d->failures (set d->telemetry first); warns with failure_summary() when configs failed.
void fill_tables(Session::Output out, const Logger& log, Results::Data* d);

/// With Options::output_csv, writes the raw and processed CSV files under `prefix` and says where.
void write_csv_files(const Results& results, const std::string& prefix, const Logger& log);

}  // namespace kscope
