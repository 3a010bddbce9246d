#include "collect/cupti/cupti_collector.hpp"

#include <cupti.h>

#include "collect/cupti/counter_collector.hpp"
#include "collect/cupti/event_timer.hpp"
#include "collect/cupti/launch_metrics.hpp"
#include "collect/cupti/metric_name_rules.hpp"
#include "collect/cupti/timing_collector.hpp"
#include "core/duration_definition.hpp"
#include "cuda/device_attributes.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {

void CuptiCollector::check_options(const Options& options) {
  if (options.duration_source == "events" &&
      (options.metrics != std::vector<std::string>{kTimeMetric} || options.replay_mode != "kernel")) {
    throw NotSupportedError(
        "duration_source 'events' times each annotated region with a pair of CUDA events and "
        "measures nothing else: it needs metrics ['gpu__time_duration.sum'] and replay_mode "
        "'kernel'. Collect the other metrics in a sweep of their own.");
  }
  for (const auto& m : options.metrics) check_metric_name_syntax(m);
  check_launch_metrics(options);
  if (options.adaptive.enabled && needs_range_profiler(options)) {
    throw NotSupportedError(
        "runs='auto' times kernels from their activity records: the stopping rule decides after "
        "each batch of runs from the values so far, and the range profiler (hardware-counter "
        "metrics, duration_source 'profiler') hands its values over only after the sweep. Use a "
        "fixed runs= with these metrics, or runs='auto' with gpu__time_duration.sum and "
        "duration_source 'activity'.");
  }
}

std::string CuptiCollector::duration_definition(const Options& options) {
  if (!measures_durations(options)) return "";
  if (options.duration_source == "events") return "events";
  return needs_range_profiler(options) ? "profiler" : "activity";
}

std::string CuptiCollector::version() const {
  uint32_t v = 0;
  if (cuptiGetVersion(&v) != CUPTI_SUCCESS) return "CUPTI";
  return "CUPTI API " + std::to_string(v);
}

bool CuptiCollector::reads_counters(const Options& options) const {
  return options.duration_source != "events" && needs_range_profiler(options);
}

void CuptiCollector::begin(const SessionInfo& info) {
  device_metrics_ = {};
  cost_summary_.clear();
  if (info.options->duration_source == "events") {
    path_ = std::make_unique<EventTimer>();
  } else if (needs_range_profiler(*info.options)) {
    path_ = std::make_unique<CounterCollector>(info);
    // Counter records get the device's launch__/device__attribute_ metrics (check_launch_metrics
    // refused the per-launch ones); the timing path adds all of them from activity records.
    device_metrics_ = launch_metrics(info.options->metrics);
    device_attributes_ = device_metrics_.empty() ? std::map<std::string, double>{}
                                                 : cuda::read_device_attributes(info.device);
  } else {
    path_ = std::make_unique<TimingCollector>(launch_metrics(info.options->metrics));
  }
  if (info.environment && KernelFlushGate::applies(*info.options)) {
    RunEnvironment* environment = info.environment;
    gate_ = std::make_unique<KernelFlushGate>([environment](void* stream) { environment->before_kernel(stream); });
    set_launch_gate(gate_.get());
  }
}

void CuptiCollector::remove_gate() noexcept {
  if (!gate_) return;
  set_launch_gate(nullptr);
  gate_.reset();
}

std::vector<KernelRecord> CuptiCollector::with_device_metrics(std::vector<KernelRecord> records) const {
  for (auto& r : records) {
    for (const auto& m : device_metrics_) r.metrics.push_back(launch_measurement(m, nullptr, device_attributes_));
  }
  return records;
}

bool CuptiCollector::flush_is_complete() const { return path_ && path_->flush_is_complete(); }

int CuptiCollector::passes_per_run() const { return path_ ? path_->passes_per_run() : 1; }

void CuptiCollector::prepare_pass(const RunId& run, int pass) { path_->prepare_pass(run, pass); }

void CuptiCollector::before_run(const RunId& run, int pass) { path_->before_run(run, pass); }

void CuptiCollector::after_run(const RunId& run, int pass) {
  path_->after_run(run, pass);
  if (gate_) gate_->rethrow();
}

std::vector<KernelRecord> CuptiCollector::flush() {
  return path_ ? with_device_metrics(path_->flush()) : std::vector<KernelRecord>{};
}

std::vector<KernelRecord> CuptiCollector::end() {
  std::vector<KernelRecord> out;
  try {
    out = path_ ? with_device_metrics(path_->end()) : std::vector<KernelRecord>{};
    if (path_) cost_summary_ = path_->cost_summary();
    if (path_ && gate_) check_flush_kernels(gate_->flushes(), path_->flush_kernels_seen());
  } catch (...) {
    abort();
    throw;
  }
  abort();
  return out;
}

void CuptiCollector::abort() noexcept {
  remove_gate();
  if (!path_) return;
  path_->abort();
  path_.reset();
}

}  // namespace kscope::cupti
