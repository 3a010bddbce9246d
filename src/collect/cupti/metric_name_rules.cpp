#include "collect/cupti/metric_name_rules.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "collect/cupti/launch_metrics.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

// Metric namespaces Nsight Compute fills from the launch, the device or its own instrumentation;
// the CUPTI range profiler has no counters behind them.
constexpr std::array<std::string_view, 7> kNcuOnlyPrefixes = {
    "launch__", "device__", "profiler__", "sass__", "numa__", "nvlink__", "pmsampling:"};

std::string python_list(const std::vector<UnknownMetric>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i].name + "'";
  return out + "]";
}

}  // namespace

bool needs_range_profiler(const Options& options) {
  if (options.replay_mode == "range" || options.duration_source == "profiler") return true;
  for (const auto& m : options.metrics) {
    if (m != kTimeMetric && !launch_metric_kind(m)) return true;
  }
  return false;
}

std::vector<std::string> counter_metrics(const std::vector<std::string>& metrics) {
  std::vector<std::string> out;
  for (const auto& m : metrics) {
    if (!launch_metric_kind(m)) out.push_back(m);
  }
  return out;
}

std::vector<std::string> launch_metrics(const std::vector<std::string>& metrics) {
  std::vector<std::string> out;
  for (const auto& m : metrics) {
    if (launch_metric_kind(m) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  return out;
}

void check_launch_metrics(const Options& options) {
  if (!needs_range_profiler(options)) return;
  for (const auto& m : options.metrics) {
    if (launch_metric_kind(m) == LaunchMetricKind::kLaunch) {
      throw NotSupportedError(
          "metric '" + m + "' comes from the kernel's launch configuration, which the cupti tool "
          "reads from kernel activity records; together with hardware-counter metrics (or "
          "replay_mode 'range', duration_source 'profiler') it is not served yet. Collect it "
          "with gpu__time_duration.sum in its own sweep, or use tool 'ncu'.");
    }
  }
}

void check_metric_name_syntax(const std::string& name) {
  if (launch_metric_kind(name)) return;  // served from activity records and the device
  for (auto prefix : kNcuOnlyPrefixes) {
    if (name.compare(0, prefix.size(), prefix) == 0) {
      throw NotSupportedError(
          "metric '" + name + "' is computed by Nsight Compute from the launch configuration, "
          "the device attributes or its own instrumentation; the cupti tool's range profiler has "
          "no counter for it, and it is not one of the launch and device metrics the cupti tool "
          "serves (docs/tools/cupti-metrics.md, \"Launch and device metrics\"). Use tool 'ncu' to "
          "collect it.");
    }
  }
  if (name.find(',') != std::string::npos) {
    throw InvalidArgument("Invalid metric name '" + name +
                          "': it contains a comma. Pass each metric as its own list entry, e.g. "
                          "{\"gpu__time_duration.sum\", \"dram__bytes_read.sum\"}.");
  }
  if (name.find_first_of(" \t\r\n") != std::string::npos) {
    throw InvalidArgument("Invalid metric name '" + name + "': it contains whitespace.");
  }
}

std::string invalid_metrics_message(const std::vector<UnknownMetric>& unknown,
                                    const std::string& chip, const std::string& call) {
  std::string msg =
      "Invalid value " + python_list(unknown) + " for 'metrics' parameter for " + call + ".";
  for (const auto& u : unknown) {
    if (u.suggestions.empty()) continue;
    msg += "\n'" + u.name + "': did you mean ";
    for (std::size_t i = 0; i < u.suggestions.size(); ++i) {
      msg += (i == 0 ? "'" : (i + 1 == u.suggestions.size() ? "' or '" : "', '")) + u.suggestions[i];
    }
    msg += "'?";
  }
  msg += "\nPlease refer `kscope query-metrics --chip " + chip +
         "` (or ncu --query-metrics) for list of supported metrics.";
  return msg;
}

}  // namespace kscope::cupti
