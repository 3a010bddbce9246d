#pragma once
// The compare table of two results (WriteOptions::compare): one row per (annotation, metric,
// config label) of either result, with both means and their ratio.

#include "kscope/results.hpp"
#include "report/processed_cells.hpp"

namespace kscope::report {

/// Annotation, Config, Metric, Unit, Baseline (the compared-with result's AvgValue), Result
/// (this one's), Ratio (Result / Baseline), Change (percent). Rows follow `result`'s order, then
/// the baseline's rows it lacks; a value one side lacks is "-". Configs match by their label.
[[nodiscard]] Cells compare_cells(const Results& result, const Results& baseline);

}  // namespace kscope::report
