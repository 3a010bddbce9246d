#pragma once
// Transformation: extracted records -> raw table (with derived metrics) -> processed table
// (statistics, normalisation, geomean), with nsight-python's columns (docs/output-schema.md).
// Pure functions.

#include <vector>

#include "core/extraction.hpp"
#include "kscope/config.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// Raw rows: every extracted record exploded over `metrics`, then (after all of them) the
/// derived metrics of every record. Derived metrics of failed runs are NaN.
[[nodiscard]] std::vector<RawRow> build_raw_rows(const std::vector<ExtractedRecord>& records,
                                                 const std::vector<std::string>& metrics,
                                                 const DeriveFn& derive,
                                                 const std::vector<Config>& configs);

/// Processed rows grouped by (annotation, metric, config) in first-appearance order of `raw`.
/// `normalize_against` empty: no normalisation. Otherwise AvgValue is divided by the baseline
/// annotation's AvgValue of the same (metric, config), rows without a baseline are dropped, and
/// an unknown baseline throws InvalidArgument listing the annotations.
[[nodiscard]] std::vector<ProcessedRow> aggregate(const std::vector<RawRow>& raw,
                                                  const std::string& normalize_against);

/// Options::adaptive: sets each row's stop_reason from the stop of its config.
void apply_stops(const std::vector<ConfigStop>& stops, std::vector<ProcessedRow>& rows);

}  // namespace kscope
