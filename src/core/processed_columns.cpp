#include "core/processed_columns.hpp"

#include <stdexcept>
#include <type_traits>

namespace kscope {

const std::vector<ProcessedColumn>& processed_columns() {
  using P = ProcessedRow;
  using S = ColumnShown;
  using M = ColumnMissing;
  using Src = ColumnSource;
  using J = ColumnJson;
  static const std::vector<ProcessedColumn> columns = {
      {"Annotation", &P::annotation},
      {"Metric", &P::metric},
      {"<parameters>", ParameterColumns{}},
      {"AvgValue", &P::avg},
      {"StdDev", &P::stddev},
      {"MinValue", &P::min},
      {"MaxValue", &P::max},
      {"NumRuns", &P::num_runs},
      {"Kernel", &P::kernel, S::kAlways, M::kNever, Src::kTable, J::kOptional},
      {"GPU", &Metadata::gpu, S::kAlways, M::kNever, Src::kResult, J::kNever},
      {"Host", &Metadata::host, S::kAlways, M::kNever, Src::kResult, J::kNever},
      {"ComputeClock", &Metadata::compute_clock, S::kAlways, M::kNever, Src::kResult, J::kNever},
      {"MemoryClock", &Metadata::memory_clock, S::kAlways, M::kNever, Src::kResult, J::kNever},
      {"Unit", &P::unit, S::kAlways, M::kNaN, Src::kTable, J::kOptional},
      // Telemetry of the config's runs (NaN without NVML).
      {"ClockMHz_Min", &P::clock_mhz_min, S::kAlways, M::kNever, Src::kConfig, J::kOptional},
      {"TempC_Max", &P::temp_c_max, S::kAlways, M::kNever, Src::kConfig, J::kOptional},
      {"PowerW_Avg", &P::power_w_avg, S::kAlways, M::kNever, Src::kConfig, J::kOptional},
      {"Throttled", &P::throttled, S::kAlways, M::kNever, Src::kConfig, J::kOptional},
      // Quantiles: absent in files written before kscope reported them.
      {"Median", &P::median, S::kAlways, M::kNever, Src::kTable, J::kOptional},
      {"Q1", &P::q1, S::kAlways, M::kNever, Src::kTable, J::kOptional},
      {"Q3", &P::q3, S::kAlways, M::kNever, Src::kTable, J::kOptional},
      {"<info collectors>", InfoColumns{}, S::kAlways, M::kNone, Src::kConfig},
      {"CI95_Lower", &P::ci95_lower},
      {"CI95_Upper", &P::ci95_upper},
      {"RelativeStdDevPct", &P::rel_stddev_pct},
      {"StableMeasurement", &P::stable, S::kAlways, M::kNone},
      {"Normalized", &P::normalized, S::kAlways, M::kFalse},
      // A JSON row always has it (null when not normalised).
      {"NormalizationValue", &P::normalization_value, S::kNormalized, M::kNaN, Src::kTable,
       J::kOptional},
      {"Geomean", &P::geomean},
      {"Error", &P::error, S::kFailed, M::kNone, Src::kTable, J::kWhenSet},
      {"StopReason", &P::stop_reason, S::kAdaptive, M::kNone, Src::kConfig, J::kWhenSet},
  };
  return columns;
}

const ProcessedColumn& processed_column(const std::string& name) {
  for (const auto& c : processed_columns()) {
    if (name == c.name) return c;
  }
  throw std::logic_error("no processed column '" + name + "'");
}

bool is_shown(ColumnShown when, const Results& results) {
  switch (when) {
    case ColumnShown::kAlways: return true;
    case ColumnShown::kFailed: return !results.failed_configs().empty();
    case ColumnShown::kNormalized:
      for (const auto& p : results.processed()) {
        if (p.normalized) return true;
      }
      return false;
    case ColumnShown::kAdaptive:
      for (const auto& p : results.processed()) {
        if (!p.stop_reason.empty()) return true;
      }
      return false;
  }
  return true;
}

void copy_config_columns(const ProcessedRow& from, ProcessedRow* to) {
  for (const auto& c : processed_columns()) {
    if (c.source != ColumnSource::kConfig) continue;
    std::visit(
        [&](const auto& field) {
          using F = std::decay_t<decltype(field)>;
          if constexpr (std::is_same_v<F, InfoColumns>) {
            to->info = from.info;
          } else if constexpr (std::is_member_object_pointer_v<F>) {
            if constexpr (std::is_same_v<F, std::string Metadata::*> ||
                          std::is_same_v<F, long long Metadata::*>) {
              throw std::logic_error(std::string("column ") + c.name + " is the result's");
            } else {
              to->*field = from.*field;
            }
          }
        },
        c.field);
  }
}

}  // namespace kscope
