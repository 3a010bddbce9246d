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
// many ranges a pass holds; see RangeProfiler) happens before any run.

#include <memory>
#include <string>
#include <vector>

#include "collect/cupti/collection_plan.hpp"
#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/measurement_path.hpp"
#include "core/collector.hpp"
#include "core/logger.hpp"

namespace kscope::cupti {

class CounterBatch;
class CuptiCheckpoint;
class LaunchLog;
class ProfilerHost;
class RangeProfiler;
class SessionStrategy;

class CounterCollector : public MeasurementPath {
 public:
  /// Checks the device, validates the metric names against its chip's catalogue (before any
  /// run), builds the config, loads the checkpoint library for checkpoint replay, enables the
  /// range profiler on the device's primary context, runs its expensive first session (empty,
  /// sized for the sweep) and hooks the launch callbacks and annotation listener. Throws on any
  /// failure, leaving nothing enabled.
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
  /// Stops everything, prints the cost summary at DEBUG and returns the remaining records.
  [[nodiscard]] std::vector<KernelRecord> end() override;
  /// Stops everything without throwing.
  void abort() noexcept override;

 private:
  void on_annotation(bool entering, const std::string& name) noexcept;
  void shutdown() noexcept;

  Logger log_;
  CollectionPlan plan_;
  std::unique_ptr<ProfilerHost> host_;  // holds the metric set; evaluates
  // Declared before the profiler, so that the profiler's Disable (also when the constructor
  // throws) runs while the batch's config and counter data images, which CUPTI points to, exist.
  std::unique_ptr<CounterBatch> batch_;
  std::unique_ptr<RangeProfiler> profiler_;
  std::unique_ptr<CuptiCheckpoint> checkpoint_;  // checkpoint replay only
  std::unique_ptr<LaunchLog> launches_;
  std::unique_ptr<SessionStrategy> strategy_;
  LaunchCallbacks callbacks_;
  bool hooked_ = false;
  std::size_t listener_token_ = 0;  // annotation registry listener
};

}  // namespace kscope::cupti
