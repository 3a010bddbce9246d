#include "api/time_session.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "core/annotation_registry.hpp"
#include "core/extraction.hpp"
#include "core/logger.hpp"
#include "core/session.hpp"
#include "core/transformation.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

std::string no_kernel_text(const TimeOptions& t, std::size_t calls) {
  std::string text = t.call_name + ": the callable launched no CUDA kernel in its " +
                     std::to_string(calls) + " measured call" + (calls == 1 ? "" : "s") +
                     ", so there is nothing to time. kscope times the kernels each call launches "
                     "(their GPU durations, from CUPTI); memory copies, memsets and host work are "
                     "not kernels";
  if (t.warmup_runs == 1) {
    text += ", and kernels launched only by the unmeasured first call are not measured";
  } else if (t.warmup_runs > 1) {
    text += ", and kernels launched only by the " + std::to_string(t.warmup_runs) +
            " unmeasured first calls (warmup_runs) are not measured";
  }
  return text + ".";
}

}  // namespace

Options session_options(const TimeOptions& t) {
  if (t.call_name.empty()) {
    throw InvalidArgument("Invalid call_name '': it names the measured region, so it must not be "
                          "empty.");
  }
  Options o;
  o.runs = t.runs;
  o.adaptive = t.adaptive;
  o.warmup_runs = t.warmup_runs;
  o.cache_control = t.cache_control;
  o.duration_source = t.duration_source;
  o.ignore_kernel_list = t.ignore_kernel_list;
  o.combine_kernel_metrics = [](double lhs, double rhs) { return lhs + rhs; };
  o.verbosity = t.verbosity;
  o.log = t.log;
  o.thermal.mode = "off";
  o.call_name = t.call_name;
  o.validate();
  return o;
}

Timing time_session(const std::function<void()>& fn, const TimeOptions& t, const Options& options,
                    Collector& collector, RunEnvironment& environment, int device,
                    HostTimes& times) {
  const auto start = std::chrono::steady_clock::now();
  if (!fn) throw InvalidArgument(t.call_name + ": the callable is empty.");
  if (AnnotationRegistry::instance().current_run()) {
    throw NotSupportedError(t.call_name + " was called inside a run of a profile() sweep: it runs "
                            "measured calls of its own, which cannot happen inside another "
                            "measured run. Call it outside the benchmark of kscope::profile "
                            "(the function decorated with kscope.analyze.kernel).");
  }
  std::vector<Config> configs(1);
  const Logger log(options);
  Session session(collector, environment, nullptr, log);
  session.set_host_times(&times);
  const SessionInfo info{"time", 0, configs.size(), &options, device, "", &environment};
  const Benchmark call = [&fn, &t](const Config&) {
    if (t.setup) t.setup();
    const Annotation region(t.call_name);
    fn();
  };
  const Session::Output out = session.run(info, configs, call);
  if (out.records.empty()) throw ExtractionError(no_kernel_text(t, out.runs.size()));

  const ExtractionSettings settings{options.metrics, options.ignore_kernel_list,
                                    options.combine_kernel_metrics, config_labels(configs)};
  const std::vector<RawRow> raw =
      build_raw_rows(extract(out.records.all(), out.runs, settings), options.metrics, {}, configs);
  std::vector<ProcessedRow> rows = aggregate(raw, "");
  apply_stops(out.stops, rows);
  Timing timing;
  timing.statistics = rows.front();
  timing.values.reserve(raw.size());
  for (const auto& r : raw) timing.values.push_back(r.value);
  timing.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  times.step("statistics");
  if (log.debug_enabled()) log.debug(times.fixed_cost_summary());
  return timing;
}

}  // namespace kscope
