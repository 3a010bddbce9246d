#pragma once
// Hardware counters for the cupti tool through the CUPTI Range Profiler. Enabled only when the
// options ask for a metric other than gpu__time_duration.sum, for replay_mode "range" or for
// duration_source "profiler"; plain timing never touches the range profiler.
//
// This class sets the profiler up and wires the pieces; what happens around runs and annotations
// is one SessionStrategy per collection scope (CollectionPlan): SpanSessions (one-pass sets: one
// session spanning many measured runs), AnnotationSessions (CUPTI's kernel replay and
// KSCOPE_CUPTI_BATCH: a session per annotation) and RunSessions (checkpoint, application and
// range replay: a session per execution of a run, re-executed once per pass). They share one
// CounterBatch (image, capacity, decode) and the LaunchLog fed by the launch callbacks. The cost
// to minimise is the number of CUPTI Start..Stop pairs (about 13 ms each with user replay on the
// H200); decoding is cheap, and several sessions append their ranges to one image.
// Set-up ends with an empty session whose first Start (the expensive one, which also fixes how
// many ranges a pass holds; see RangeProfiler) happens before any run, unless the previous
// session kept its object for this one (KSCOPE_KEEP_COUNTERS_S, kept_range_profiler.hpp).

#include <memory>
#include <string>
#include <vector>

#include "collect/cupti/collection_plan.hpp"
#include "collect/cupti/kept_range_profiler.hpp"
#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/measurement_path.hpp"
#include "core/collector.hpp"
#include "core/logger.hpp"

namespace kscope::cupti {

class CounterBatch;
class CuptiCheckpoint;
class LaunchLog;
class ProfilerHost;
class SessionStrategy;

class CounterCollector : public MeasurementPath {
 public:
  /// Checks the device, validates the metric names against its chip's catalogue (before any
  /// run), builds the config, loads the checkpoint library for checkpoint replay, enables the
  /// range profiler on the device's primary context and runs its expensive first session (empty,
  /// sized for the sweep), or reuses the object the previous session kept for this metric set and
  /// shape, and hooks the launch callbacks and annotation listener. Throws on any failure,
  /// leaving nothing enabled.
  explicit CounterCollector(const SessionInfo& info);
  ~CounterCollector() override;
  CounterCollector(const CounterCollector&) = delete;             // owns CUPTI state
  CounterCollector& operator=(const CounterCollector&) = delete;  // owns CUPTI state

  [[nodiscard]] int passes_per_run() const override { return plan_.passes_per_run; }
  /// Checkpoint replay: saves device memory before pass 0 of a measured run and restores it
  /// before every later pass.
  void prepare_pass(const RunId& run, int pass) override;
  void before_run(const RunId& run, int pass) override;
  void after_run(const RunId& run, int pass) override;
  /// Records decoded so far (a spanning session is decoded here when old or when a run did not
  /// finish).
  [[nodiscard]] std::vector<KernelRecord> flush() override;
  /// Stops everything, prints the cost summary at DEBUG, keeps the range profiler for the next
  /// session when KSCOPE_KEEP_COUNTERS_S asks for it and the sweep ended cleanly, and returns the
  /// remaining records.
  [[nodiscard]] std::vector<KernelRecord> end() override;
  /// Stops everything without throwing.
  void abort() noexcept override;

 private:
  void on_annotation(bool entering, const std::string& name) noexcept;
  void shutdown() noexcept;
  // Whether end() keeps the range profiler (says why at DEBUG).
  [[nodiscard]] bool decide_keeping(bool failed) const;

  Logger log_;
  CollectionPlan plan_;
  std::unique_ptr<ProfilerHost> host_;  // holds the metric set; evaluates
  // Before the profiler: when the constructor throws, the profiler's Disable runs while the
  // batch's images, which CUPTI points to, still exist.
  std::unique_ptr<CounterBatch> batch_;
  std::unique_ptr<RangeProfilerApi> profiler_;
  ProfilerKey key_;           // what a kept object is reused for
  double keep_seconds_ = 0;   // KSCOPE_KEEP_COUNTERS_S
  bool keep_ = false;         // end() succeeded and keeps: shutdown() hands the object over
  std::unique_ptr<CuptiCheckpoint> checkpoint_;  // checkpoint replay only
  std::unique_ptr<LaunchLog> launches_;
  std::unique_ptr<SessionStrategy> strategy_;
  LaunchCallbacks callbacks_;
  bool hooked_ = false;
  std::size_t listener_token_ = 0;  // annotation registry listener
};

}  // namespace kscope::cupti
