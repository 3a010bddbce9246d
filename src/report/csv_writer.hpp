#pragma once
// CSV output with nsight-python's column order (profiled_data / processed_data files).

#include <ostream>

#include "kscope/results.hpp"

namespace kscope::report {

/// Raw table: Annotation, Value, Metric, Kernel, GPU, Host, ComputeClock, MemoryClock, Unit,
/// <info collectors...>, <parameters...>.
void write_raw_csv(const Results& results, std::ostream& out);
/// Processed table: Annotation, Metric, <parameters...>, AvgValue, StdDev, MinValue, MaxValue,
/// NumRuns, Kernel, GPU, Host, ComputeClock, MemoryClock, Unit, ClockMHz_Min, TempC_Max,
/// PowerW_Avg, Throttled, <info collectors: <name> or <name>_Avg/_Std/_Min/_Max...>,
/// CI95_Lower, CI95_Upper, RelativeStdDevPct, StableMeasurement, Normalized,
/// [NormalizationValue], Geomean.
void write_processed_csv(const Results& results, std::ostream& out);

/// Findings of a sanitizer result: Check, Kind, Category, Severity, Annotation, Kernel, Block,
/// Thread, Address, Size, File, Line, Detail, Count, Config, Run, Attribution, HostStack (frames
/// joined by " <- "), <parameters...> (empty when the config is unknown).
void write_findings_csv(const Results& results, std::ostream& out);

/// One CSV field, quoted when it holds a comma, quote or newline.
[[nodiscard]] std::string csv_field(const std::string& text);

}  // namespace kscope::report
