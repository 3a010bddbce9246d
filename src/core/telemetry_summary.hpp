#pragma once
// Per-config summary of the telemetry recorded around each run: the processed columns
// ClockMHz_Min, TempC_Max, PowerW_Avg and Throttled (docs/telemetry.md), and the warning that
// names the configs during which the GPU slowed down. Pure functions over plain data.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/results.hpp"

namespace kscope {

struct TelemetrySummary {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double clock_mhz_min = kNaN;  ///< lowest SM clock after a run
  double temp_c_max = kNaN;     ///< highest die temperature after a run
  double power_w_avg = kNaN;    ///< mean power after the runs
  double throttled = kNaN;      ///< throttled_runs / runs_with_reasons
  std::size_t runs_with_reasons = 0;  ///< runs with at least one clock-event reasons reading
  std::size_t throttled_runs = 0;     ///< runs with a kSlowdownReasons bit before or after
  std::uint64_t slowdown_seen = 0;    ///< union of the kSlowdownReasons bits seen
};

/// Whether `sample` shows a power or thermal slowdown (a kSlowdownReasons bit).
[[nodiscard]] bool slowed_down(const TelemetrySample& sample);

/// One summary per config that has telemetry, keyed by config index. Clock, temperature and
/// power use the readings after each run (before the first run of a sweep the GPU is often idle
/// at a low clock); Throttled counts a run when either reading shows a slowdown.
[[nodiscard]] std::map<std::size_t, TelemetrySummary> summarize_telemetry(
    const std::vector<RunTelemetry>& telemetry);

/// Fills the telemetry columns of every row from its config's summary (NaN where none).
void add_telemetry_columns(std::vector<ProcessedRow>& rows,
                           const std::map<std::size_t, TelemetrySummary>& summaries);

/// The run-time warning naming every config with Throttled > 0, or nullopt when there is none.
[[nodiscard]] std::optional<std::string> throttle_warning(
    const std::map<std::size_t, TelemetrySummary>& summaries, const std::vector<Config>& configs);

}  // namespace kscope
