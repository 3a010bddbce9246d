#pragma once
// The info collectors' columns of a finished session (docs/info-collectors.md, "Columns"):
// every raw row gets the values collected for its run (its annotation's entry for ANNOTATION
// collectors), derived-metric rows included; each processed row gets, per collector, the first
// value of its group or, for numeric CONFIG/RUN/ANNOTATION collectors, mean, standard deviation
// (ddof 1), min and max. Pure functions over plain data, like telemetry_summary.

#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/info_collector.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// Fills RawRow::info of `raw` from `runs` and ProcessedRow::info of `processed` (grouped by
/// annotation, metric and config over `raw`); returns the columns, in `collectors` order. Without
/// collectors nothing changes and the result is empty. A collector is aggregated when it is not
/// ONCE-scoped and returned at least one number and no string.
std::vector<InfoColumn> add_info_columns(const std::vector<InfoCollector>& collectors,
                                         const std::vector<RunLog>& runs,
                                         std::vector<RawRow>& raw,
                                         std::vector<ProcessedRow>& processed);

}  // namespace kscope
