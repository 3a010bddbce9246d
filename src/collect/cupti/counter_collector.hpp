#pragma once
// Hardware counters for the cupti tool through the CUPTI Range Profiler. Enabled only when the
// options ask for a metric other than gpu__time_duration.sum or for replay_mode "range"; plain
// timing never touches the range profiler.
//
// Sessions (see CollectionPlan):
// - replay_mode "kernel": a CUPTI session per annotation, started and stopped by the annotation
//   registry's listener, in auto-range mode. The k-th kernel launch the launch callbacks see in
//   the session is the k-th auto range. One-pass sets run without replay (user replay, one pass);
//   multi-pass sets use kernel replay, or with metric_replay "application" a session per run
//   that the Session re-executes once per pass.
// - replay_mode "range": a session per run in user-range mode; the listener pushes and pops one
//   range per annotation, and the Session re-executes the run once per pass.
// Each session is decoded once and all its ranges are evaluated in one batch.

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "collect/cupti/collection_plan.hpp"
#include "collect/cupti/launch_callbacks.hpp"
#include "collect/cupti/range_attribution.hpp"
#include "core/collector.hpp"
#include "core/logger.hpp"

namespace kscope::cupti {

class ProfilerHost;
class RangeProfiler;

class CounterCollector : public LaunchObserver {
 public:
  /// Checks the device, validates the metric names against its chip's catalogue (before any
  /// run), builds the config, enables the range profiler on the device's primary context and
  /// hooks the launch callbacks and annotation listener. Throws on any failure, leaving nothing
  /// enabled.
  explicit CounterCollector(const SessionInfo& info);
  ~CounterCollector() override;
  CounterCollector(const CounterCollector&) = delete;             // owns CUPTI state
  CounterCollector& operator=(const CounterCollector&) = delete;  // owns CUPTI state

  [[nodiscard]] int passes_per_run() const { return plan_.passes_per_run; }
  void before_run(const RunId& run, int pass);
  void after_run(const RunId& run, int pass);
  [[nodiscard]] std::vector<KernelRecord> flush();
  /// Stops everything, prints the cost summary at DEBUG and returns the remaining records.
  [[nodiscard]] std::vector<KernelRecord> end();
  /// Stops everything without throwing.
  void abort() noexcept;

  void on_launch(const LaunchEvent& event) noexcept override;

 private:
  void on_annotation(bool entering, const std::string& name) noexcept;
  void start_session(const std::string& what);
  void finish_session(const RunId& run);
  // Decodes the configured image and attributes its ranges to batch_ (the launches of the
  // annotation sessions it holds, in order).
  void decode_batch(const std::string& what);
  // Forgets the open batch, leaving the CUPTI object ready for the next SetConfig.
  void discard_batch(bool stop_first) noexcept;
  void stop_open_session() noexcept;
  void ensure_capacity(std::size_t ranges);
  [[nodiscard]] std::vector<DecodedRange> evaluate_ranges(bool with_names);
  [[nodiscard]] std::vector<std::string> pass_trace() const;
  void rethrow_pending_error();
  void shutdown() noexcept;

  Logger log_;
  int device_ = 0;
  CollectionPlan plan_;
  MetricColumns columns_;
  std::vector<const char*> column_ptrs_;
  std::unique_ptr<ProfilerHost> host_;  // holds the metric set; evaluates
  std::vector<std::uint8_t> config_;
  std::unique_ptr<RangeProfiler> profiler_;
  std::vector<std::uint8_t> image_;
  std::size_t capacity_ = 0;  // ranges image_ holds
  bool batch_runs_ = false;   // KSCOPE_CUPTI_BATCH=run: decode once per run (experimental)
  bool batch_open_ = false;   // image_ is configured and holds sessions not decoded yet
  std::vector<ProfiledLaunch> batch_;  // launches of those sessions, in order
  RunId batch_run_;
  LaunchCallbacks callbacks_;
  bool hooked_ = false;
  std::size_t listener_token_ = 0;  // annotation registry listener

  // Run state (set by before_run/after_run on the session thread).
  RunId run_;
  bool in_run_ = false;
  bool measured_ = false;
  bool run_done_ = false;               // all passes of this run were submitted
  std::vector<std::string> first_trace_;

  // Session state shared with the launch callbacks and the listener.
  mutable std::mutex mu_;
  bool profiling_ = false;              // between Start and Stop
  bool range_open_ = false;             // a user range is pushed
  std::string session_what_;
  std::vector<ProfiledLaunch> launches_;  // launches of the open session (this pass)
  std::unordered_map<std::uint32_t, std::string> entry_symbols_;  // correlation id -> kernel
  std::vector<std::string> pushed_;       // user ranges pushed in this pass
  std::size_t run_launches_ = 0;          // launches in the current run (sizing)
  std::size_t session_launches_ = 0;      // launches in the current annotation (sizing)
  std::size_t run_annotations_ = 0;       // annotations entered in the current run (sizing)
  std::size_t max_run_launches_ = 0;
  std::size_t max_annotation_launches_ = 0;
  std::size_t max_run_annotations_ = 0;
  std::uint64_t next_sequence_ = 0;
  std::exception_ptr error_;

  std::vector<KernelRecord> pending_;
  // Cost accounting for the DEBUG summary.
  std::size_t sessions_ = 0;
  std::size_t profiled_kernels_ = 0;
  double session_ms_ = 0;
  double evaluate_ms_ = 0;
  std::uint64_t session_start_ns_ = 0;
};

}  // namespace kscope::cupti
