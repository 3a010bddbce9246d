#include "core/telemetry_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kscope {
namespace {

std::string hex(std::uint64_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(bits));
  return buf;
}

}  // namespace

bool slowed_down(const TelemetrySample& sample) {
  return sample.clock_event_reasons && (*sample.clock_event_reasons & kSlowdownReasons) != 0;
}

std::map<std::size_t, TelemetrySummary> summarize_telemetry(
    const std::vector<RunTelemetry>& telemetry) {
  struct Acc {
    TelemetrySummary s;
    double power_sum = 0;
    std::size_t power_n = 0;
  };
  std::map<std::size_t, Acc> acc;
  for (const auto& t : telemetry) {
    Acc& a = acc[t.config];
    bool has_reasons = false;
    bool slowed = false;
    for (const auto* sample : {&t.before, &t.after}) {
      if (!*sample) continue;
      if ((*sample)->clock_event_reasons) {
        has_reasons = true;
        slowed = slowed || slowed_down(**sample);
        a.s.slowdown_seen |= *(*sample)->clock_event_reasons & kSlowdownReasons;
      }
    }
    if (has_reasons) ++a.s.runs_with_reasons;
    if (slowed) ++a.s.throttled_runs;
    if (!t.after) continue;
    const TelemetrySample& after = *t.after;
    if (after.sm_clock_mhz) {
      a.s.clock_mhz_min = std::isnan(a.s.clock_mhz_min)
                              ? *after.sm_clock_mhz
                              : std::min(a.s.clock_mhz_min, static_cast<double>(*after.sm_clock_mhz));
    }
    if (after.temperature_c) {
      a.s.temp_c_max = std::isnan(a.s.temp_c_max)
                           ? *after.temperature_c
                           : std::max(a.s.temp_c_max, static_cast<double>(*after.temperature_c));
    }
    if (after.power_w) {
      a.power_sum += *after.power_w;
      ++a.power_n;
    }
  }
  std::map<std::size_t, TelemetrySummary> out;
  for (auto& [config, a] : acc) {
    if (a.power_n) a.s.power_w_avg = a.power_sum / static_cast<double>(a.power_n);
    if (a.s.runs_with_reasons) {
      a.s.throttled = static_cast<double>(a.s.throttled_runs) / static_cast<double>(a.s.runs_with_reasons);
    }
    out.emplace(config, a.s);
  }
  return out;
}

void add_telemetry_columns(std::vector<ProcessedRow>& rows,
                           const std::map<std::size_t, TelemetrySummary>& summaries) {
  for (auto& row : rows) {
    const auto it = summaries.find(row.config);
    const TelemetrySummary s = it == summaries.end() ? TelemetrySummary{} : it->second;
    row.clock_mhz_min = s.clock_mhz_min;
    row.temp_c_max = s.temp_c_max;
    row.power_w_avg = s.power_w_avg;
    row.throttled = s.throttled;
  }
}

std::optional<std::string> throttle_warning(
    const std::map<std::size_t, TelemetrySummary>& summaries, const std::vector<Config>& configs) {
  std::string list;
  for (const auto& [config, s] : summaries) {
    if (s.throttled_runs == 0) continue;
    const std::string label = config < configs.size() ? configs[config].label() : std::string();
    list += std::string(list.empty() ? "" : "; ") + "config " + std::to_string(config) +
            (label.empty() ? "" : " (" + label + ")") + ": " + std::to_string(s.throttled_runs) +
            " of " + std::to_string(s.runs_with_reasons) + " runs, reasons " + hex(s.slowdown_seen);
  }
  if (list.empty()) return std::nullopt;
  return "the GPU slowed down for power or heat during runs of " + list +
         ". Their timings were not taken at full clock (see the Throttled column and the telemetry in "
         "the JSON result). 0x4 is the software power cap, normal for heavy kernels; 0x20/0x40 "
         "are thermal slowdowns, which thermal control avoids (thermal_mode 'auto' or a larger "
         "thermal_cont); 0x8/0x80 are hardware slowdowns: check the GPU's cooling and power.";
}

}  // namespace kscope
