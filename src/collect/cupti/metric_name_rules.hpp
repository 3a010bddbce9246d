#pragma once
// Checks of metric names that need no GPU and no chip: names only Nsight Compute can serve,
// malformed names, and the reference's error text for unknown names. No CUPTI headers: the CLI
// and the option checks use it.

#include <string>
#include <utility>
#include <vector>

#include "kscope/options.hpp"

namespace kscope::cupti {

/// Whether `options` need the range profiler: any metric other than gpu__time_duration.sum and
/// the launch and device metrics (launch_metrics.hpp), replay_mode "range" or duration_source
/// "profiler". Plain timing never enables it.
[[nodiscard]] bool needs_range_profiler(const Options& options);

/// `metrics` without the launch and device metrics: what the range profiler collects.
[[nodiscard]] std::vector<std::string> counter_metrics(const std::vector<std::string>& metrics);
/// The launch and device metrics of `metrics` (launch_metrics.hpp), once each, in order.
[[nodiscard]] std::vector<std::string> launch_metrics(const std::vector<std::string>& metrics);

/// NotSupportedError for a launch-configuration metric (launch__grid_size, ...) when the options
/// need the range profiler: those come from activity records, which that path does not read.
void check_launch_metrics(const Options& options);

/// Throws NotSupportedError for names Nsight Compute computes itself (launch__*, device__*,
/// profiler__*, sass__*, numa__*, nvlink__*, pmsampling:*) other than the launch and device
/// metrics the cupti tool serves, naming tool 'ncu', and InvalidArgument for names with a comma
/// or whitespace inside.
void check_metric_name_syntax(const std::string& name);

/// One unknown name and the valid names closest to it.
struct UnknownMetric {
  std::string name;
  std::vector<std::string> suggestions;
};

/// "Invalid value ['x'] for 'metrics' parameter for kscope::profile()." (the reference's text,
/// list in Python repr; `call` names the profiling call: Options::call_name), one "did you mean"
/// line per name that has suggestions, and where to look the names up
/// (`kscope query-metrics --chip <chip>`).
[[nodiscard]] std::string invalid_metrics_message(const std::vector<UnknownMetric>& unknown,
                                                  const std::string& chip,
                                                  const std::string& call = "kscope::profile()");

}  // namespace kscope::cupti
