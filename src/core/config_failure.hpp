#pragma once
// Configs that fail with Options::on_config_error "skip": how the Session describes the
// exception, and how a failed config appears in the tables (no values, the Error column) instead
// of whatever part of it ran before the exception.

#include <exception>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// The failure record of `error`, thrown by the benchmark in `run`: the type is BenchmarkError's
/// type(), the demangled C++ type of another std::exception, or "unknown exception".
[[nodiscard]] ConfigFailure failure_of(const std::exception_ptr& error, const RunId& run);

/// Drops the runs of failed configs (what ran before the exception): a failed config has no
/// values, never a partial set.
void drop_failed_configs(const std::vector<ConfigFailure>& failures, std::vector<RunLog>* runs);
/// The records of `records` whose config did not fail (a copy: the session's records may still
/// be read elsewhere, by the journal's thread).
[[nodiscard]] std::vector<KernelRecord> records_of_finished_configs(
    const std::vector<ConfigFailure>& failures, const std::vector<KernelRecord>& records);

/// Adds one row per failed config and (annotation, metric) of the table, in config order, with
/// no values (NaN, NumRuns 0) and `error` set; when the table is empty, one row per metric of
/// `metrics` with an empty annotation. `info_width`: how many info columns each row holds.
void add_failure_rows(const std::vector<ConfigFailure>& failures,
                      const std::vector<std::string>& metrics, std::size_t info_width,
                      std::vector<ProcessedRow>* processed);

/// "2 of 50 configs failed and have no values (on_config_error 'skip'):", then one line per
/// failed config with its values and error: what the session warns and the table ends with.
[[nodiscard]] std::string failure_summary(const std::vector<ConfigFailure>& failures,
                                          const std::vector<Config>& configs);

}  // namespace kscope
