#pragma once
// The cupti tool: in-process kernel durations (Activity API) attributed to annotations and runs
// at launch time (Callback API); any other metric through the CUPTI Range Profiler. begin()
// picks the measurement path: TimingCollector, CounterCollector when the options need the
// range profiler (other metrics, replay_mode "range", duration_source "profiler"), or EventTimer
// for duration_source "events" (CUDA events around each region), so plain timing stays as cheap
// as it is.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collect/cupti/kernel_flush_gate.hpp"
#include "collect/cupti/measurement_path.hpp"
#include "core/collector.hpp"

namespace kscope::cupti {

class CuptiCollector : public Collector {
 public:
  /// Checks, before any GPU work, what needs no chip: names only Nsight Compute serves
  /// (launch__*, device__*, ... other than the launch and device metrics of launch_metrics.hpp,
  /// and launch-configuration metrics together with counters) throw NotSupportedError naming
  /// tool 'ncu', malformed names throw InvalidArgument, duration_source "events" with other
  /// metrics or replay_mode "range" throws NotSupportedError. Names are checked against the
  /// GPU's catalogue in begin().
  static void check_options(const Options& options);
  /// Metadata::duration_definition of a session with `options`: "events", "profiler" (the range
  /// profiler measures: other counters, replay_mode "range", duration_source "profiler") or
  /// "activity"; "" when its metrics have no gpu__time_duration.sum.
  [[nodiscard]] static std::string duration_definition(const Options& options);
  [[nodiscard]] std::string name() const override { return "cupti"; }
  [[nodiscard]] std::string version() const override;
  void begin(const SessionInfo& info) override;
  [[nodiscard]] int passes_per_run() const override;
  void prepare_pass(const RunId& run, int pass) override;
  void before_run(const RunId& run, int pass) override;
  /// Also rethrows the first error of a flush before a kernel (cache_control "all").
  void after_run(const RunId& run, int pass) override;
  [[nodiscard]] std::vector<KernelRecord> flush() override;
  /// The timing path's flushes are complete; the range profiler decodes in batches.
  [[nodiscard]] bool flush_is_complete() const override;
  [[nodiscard]] std::vector<KernelRecord> end() override;
  [[nodiscard]] std::string cost_summary() const override { return cost_summary_; }
  [[nodiscard]] bool reads_counters(const Options& options) const override;
  void abort() noexcept override;

 private:
  [[nodiscard]] std::vector<KernelRecord> with_device_metrics(std::vector<KernelRecord> records) const;
  void remove_gate() noexcept;

  std::unique_ptr<MeasurementPath> path_;  // between begin() and end()/abort()
  std::unique_ptr<KernelFlushGate> gate_;  // cache_control "all": the process's launch gate
  std::vector<std::string> device_metrics_;  // counter path: launch__sm_count, device__attribute_*
  std::map<std::string, double> device_attributes_;
  std::string cost_summary_;  // the path's, taken at end()
};

}  // namespace kscope::cupti
