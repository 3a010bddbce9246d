#include "collect/cupti/range_attribution.hpp"

#include <algorithm>

#include "core/kernel_name.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

std::string where(const SessionPlace& p) {
  return p.what + " (config " + std::to_string(p.run.config) + " run " + std::to_string(p.run.run) + ")";
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
         " range(s). kscope sizes the image from the earlier runs of the same annotation or run; "
         "add a warm-up run (warmup_runs=1) so that the first measured run is sized too.";
}

}  // namespace

void check_no_graph_launch(const std::vector<ProfiledLaunch>& launches, const SessionPlace& place) {
  for (const auto& l : launches) {
    if (l.graph) {
      throw NotSupportedError(
          "A CUDA graph was launched in " + where(place) +
          ". With hardware counters the cupti tool profiles one auto range per kernel launch and "
          "cannot see the kernels inside a graph. Use replay_mode 'range' (one value set for the "
          "annotation) or tool 'ncu'.");
    }
  }
}

std::vector<KernelRecord> attribute_auto_ranges(const std::vector<ProfiledLaunch>& launches,
                                                const std::vector<DecodedRange>& ranges,
                                                std::size_t dropped, const MetricColumns& columns,
                                                const SessionPlace& place) {
  check_no_graph_launch(launches, place);
  if (dropped > 0) throw ToolError(dropped_message(dropped, ranges.size(), place));
  if (ranges.size() != launches.size()) {
    throw ToolError("The CUPTI range profiler produced " + std::to_string(ranges.size()) +
                    " auto range(s) for the " + std::to_string(launches.size()) +
                    " kernel launch(es) seen in " + where(place) +
                    ", so kernels cannot be matched to their counters. Kernels launched by "
                    "another context or device, or by the driver itself (e.g. some memsets), "
                    "cause this; move them out of the annotation or use tool 'ncu'.");
  }
  std::vector<KernelRecord> out;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& l = launches[i];
    if (l.annotation.empty()) continue;
    KernelRecord r;
    r.annotation = l.annotation;
    r.mangled = l.mangled.empty() ? "unknown" : l.mangled;
    r.kernel = l.mangled.empty() ? "unknown" : kernel_base_name(l.mangled);
    r.run = place.run;
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
