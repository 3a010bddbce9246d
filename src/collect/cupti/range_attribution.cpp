#include "collect/cupti/range_attribution.hpp"

#include <algorithm>

#include "core/kernel_name.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

std::string run_text(const RunId& r) {
  return "config " + std::to_string(r.config) + " run " + std::to_string(r.run);
}

std::string where(const SessionPlace& p) {
  if (p.last_run && !(*p.last_run == p.run)) {
    return p.what + " (" + run_text(p.run) + " to " + run_text(*p.last_run) + ")";
  }
  return p.what + " (" + run_text(p.run) + ")";
}

std::vector<Measurement> measurements(const DecodedRange& r, const MetricColumns& c) {
  std::vector<Measurement> out;
  for (std::size_t i = 0; i < c.names.size(); ++i) {
    out.push_back({c.names[i], i < r.values.size() ? r.values[i] : 0.0, c.units[i]});
  }
  return out;
}

std::string dropped_message(std::size_t dropped, std::size_t recorded, const SessionPlace& p) {
  return "The CUPTI range profiler dropped " + std::to_string(dropped) + " range(s) of " +
         where(p) + ": its counter data image held " + std::to_string(recorded) +
         " range(s). kscope sizes the image from the kernel launches of the earlier runs; add a "
         "warm-up run (warmup_runs=1) so that the first measured run is sized too, or set "
         "KSCOPE_CUPTI_BATCH=annotation (images per annotation, only annotated kernels "
         "profiled).";
}

}  // namespace

void check_no_graph_launch(const std::vector<ProfiledLaunch>& launches, const SessionPlace& place) {
  for (const auto& l : launches) {
    if (!l.graph) continue;
    if (l.annotation.empty()) {
      throw NotSupportedError(
          "A CUDA graph was launched outside the measured annotations of " + where(place) +
          " while a CUPTI session covering whole runs was open. With hardware counters the cupti "
          "tool profiles one auto range per kernel launch and cannot see the kernels inside a "
          "graph. One-pass metric sets are collected in sessions spanning whole runs; "
          "KSCOPE_CUPTI_BATCH=annotation profiles only the kernels inside annotations. Otherwise "
          "use replay_mode 'range' (one value set per annotation) or tool 'ncu'.");
    }
    throw NotSupportedError(
        "A CUDA graph was launched in annotation '" + l.annotation + "' (" + run_text(l.run) +
        "). With hardware counters the cupti tool profiles one auto range per kernel launch and "
        "cannot see the kernels inside a graph. Use replay_mode 'range' (one value set for the "
        "annotation) or tool 'ncu'.");
  }
}

std::vector<KernelRecord> attribute_auto_ranges(const std::vector<ProfiledLaunch>& launches,
                                                const std::vector<DecodedRange>& ranges,
                                                std::size_t dropped, const MetricColumns& columns,
                                                const SessionPlace& place) {
  check_no_graph_launch(launches, place);
  if (dropped > 0) throw ToolError(dropped_message(dropped, ranges.size(), place));
  if (place.capacity > 0 && launches.size() > place.capacity) {
    // CUPTI keeps at most what its first session was set up for, and says nothing about the rest.
    throw ToolError(
        "The CUPTI range profiler was set up for " + std::to_string(place.capacity) +
        " ranges per batch, but " + std::to_string(launches.size()) + " kernel launch(es) were profiled in " +
        where(place) + ", and CUPTI keeps no more ranges than its first session was set up for. "
        "A measured run launched more kernels than kscope expected before it: give the sweep "
        "warmup_runs=1 (kscope sizes the profiler from the warm-up run) or use "
        "KSCOPE_CUPTI_BATCH=annotation.");
  }
  if (ranges.size() != launches.size()) {
    throw ToolError("The CUPTI range profiler produced " + std::to_string(ranges.size()) +
                    " auto range(s) for the " + std::to_string(launches.size()) +
                    " kernel launch(es) seen in " + where(place) +
                    ", so kernels cannot be matched to their counters. Kernels the driver "
                    "launches itself, or launches captured into a CUDA graph (they do not run), "
                    "cause this; move them out of the annotation or use tool 'ncu'. With a "
                    "one-pass metric set every kernel launched during and between measured runs "
                    "is profiled: KSCOPE_CUPTI_BATCH=annotation profiles only the kernels inside "
                    "annotations.");
  }
  std::vector<KernelRecord> out;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& l = launches[i];
    if (l.annotation.empty()) continue;
    KernelRecord r;
    r.annotation = l.annotation;
    r.mangled = l.mangled.empty() ? "unknown" : l.mangled;
    r.kernel = l.mangled.empty() ? "unknown" : kernel_base_name(l.mangled);
    r.run = l.run;
    r.device = place.device;
    r.sequence = l.sequence;
    r.metrics = measurements(ranges[i], columns);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<KernelRecord> attribute_user_ranges(const std::vector<std::string>& pushed,
                                                const std::vector<DecodedRange>& ranges,
                                                std::size_t dropped, const MetricColumns& columns,
                                                const SessionPlace& place) {
  if (dropped > 0) throw ToolError(dropped_message(dropped, ranges.size(), place));
  std::vector<KernelRecord> out;
  for (std::size_t i = 0; i < pushed.size(); ++i) {
    auto it = std::find_if(ranges.begin(), ranges.end(),
                           [&](const DecodedRange& r) { return r.name == pushed[i]; });
    if (it == ranges.end()) {
      std::string seen;
      for (const auto& r : ranges) seen += (seen.empty() ? "'" : ", '") + r.name + "'";
      throw ToolError("The CUPTI range profiler returned no range for annotation '" + pushed[i] +
                      "' in " + where(place) + " (ranges returned: [" + seen + "]).");
    }
    KernelRecord r;
    r.annotation = pushed[i];
    r.kernel = "range";
    r.mangled = "range";
    r.run = place.run;
    r.device = place.device;
    r.sequence = i;
    r.metrics = measurements(*it, columns);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace kscope::cupti
