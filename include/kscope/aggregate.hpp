#pragma once
/// \file
/// kscope::aggregate_rows: the engine's statistics over raw rows that the caller made or edited
/// (one RawRow per run of an annotation, metric and config), as profile() computes them:
/// AvgValue, StdDev, Min/Max, NumRuns, CI95, stability, normalisation and geomean. Python's
/// kscope.transformation.aggregate_data (nsight-python's name) is built on it.

#include <string>
#include <vector>

#include "kscope/results.hpp"

namespace kscope {

/**
 * Processed rows grouped by (annotation, metric, config) in first-appearance order of `raw`.
 * With `normalize_against`, AvgValue is divided by that annotation's AvgValue of the same
 * metric and config (rows without a baseline are dropped); an unknown annotation throws
 * InvalidArgument listing the annotations. Telemetry columns are NaN.
 */
[[nodiscard]] std::vector<ProcessedRow> aggregate_rows(const std::vector<RawRow>& raw,
                                                       const std::string& normalize_against = "");

}  // namespace kscope
