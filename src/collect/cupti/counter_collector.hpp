#pragma once
// Hardware counters for the cupti tool through the CUPTI Range Profiler. Enabled only when the
// options ask for a metric other than gpu__time_duration.sum or for replay_mode "range"; plain
// timing never touches the range profiler.
//
// Sessions (see CollectionPlan). The cost to minimise is the number of CUPTI Start..Stop pairs
// (about 13 ms each with user replay on the H200); decoding is cheap and several sessions append
// their ranges to one counter data image (a "batch", configured by one SetConfig).
// - replay_mode "kernel", one-pass set (default): one session spanning many measured runs, in
//   auto-range mode, stopped only to decode a batch: when the image could not hold another run,
//   when the Session flushes and the batch is older than a few seconds, and at the end. Every
//   kernel launched meanwhile is profiled; the k-th launch the launch callbacks see (on the
//   profiled context) is the k-th auto range, and only launches inside the annotations of
//   measured runs are attributed. KSCOPE_CUPTI_BATCH=annotation: a session per annotation.
// - replay_mode "kernel", multi-pass set, metric_replay "checkpoint" (default) or "application": a
//   session per run that the Session re-executes once per pass; "checkpoint" saves device memory
//   before the first pass and restores it before each later one (prepare_pass), so every pass
//   starts from the same memory and (after the cache flush at region entry) cold caches. With
//   metric_replay "kernel": CUPTI's kernel replay with a session per annotation (Start and Stop
//   cost microseconds there), decoded per annotation (or per run with KSCOPE_CUPTI_BATCH=run).
// - replay_mode "range": a session per run in user-range mode; the listener pushes and pops one
//   range per annotation, and the Session re-executes the run once per pass (memory restored as
//   for "checkpoint" unless metric_replay is "application").
// Each batch is decoded once and all its ranges are evaluated together.
// Set-up ends with an empty session whose first Start (the expensive one, which also fixes how
// many ranges a pass holds; see RangeProfiler) happens before any run; a batch needing more
// ranges later gets a new profiler object.

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

class CuptiCheckpoint;
class ProfilerHost;
class RangeProfiler;

class CounterCollector : public LaunchObserver {
 public:
  /// Checks the device, validates the metric names against its chip's catalogue (before any
  /// run), builds the config, enables the range profiler on the device's primary context, runs
  /// its expensive first session (empty, sized for the sweep) and hooks the launch callbacks and
  /// annotation listener. Throws on any failure, leaving nothing enabled.
  explicit CounterCollector(const SessionInfo& info);
  ~CounterCollector() override;
  CounterCollector(const CounterCollector&) = delete;             // owns CUPTI state
  CounterCollector& operator=(const CounterCollector&) = delete;  // owns CUPTI state

  [[nodiscard]] int passes_per_run() const { return plan_.passes_per_run; }
  /// Checkpoint replay: saves device memory before pass 0 of a measured run and restores it
  /// before every later pass.
  void prepare_pass(const RunId& run, int pass);
  void before_run(const RunId& run, int pass);
  void after_run(const RunId& run, int pass);
  /// Records decoded so far. A spanning session is stopped and decoded here when its batch is
  /// a few seconds old (so the journal keeps up) or when a run did not finish (the Session's
  /// error path: the finished runs' records are kept).
  [[nodiscard]] std::vector<KernelRecord> flush();
  /// Stops everything, prints the cost summary at DEBUG and returns the remaining records.
  [[nodiscard]] std::vector<KernelRecord> end();
  /// Stops everything without throwing.
  void abort() noexcept;

  void on_launch(const LaunchEvent& event) noexcept override;

 private:
  void on_annotation(bool entering, const std::string& name) noexcept;
  // Configures image_ (sized for at least `ranges` ranges) for a new batch starting at `run`.
  void open_batch(std::size_t ranges, const RunId& run);
  // Start of a session in the open batch.
  void start_session(const std::string& what);
  // Annotation sessions (SessionScope::kAnnotation).
  void start_annotation_session(const std::string& name);
  void finish_annotation_session();
  // Spanning sessions (SessionScope::kSpan): opened by a measured run, closed (stopped and
  // decoded) before a warm-up run or a run the image might not hold, when old, at the end, or
  // on the Session's error path.
  void before_span_run(const RunId& run);
  void after_span_run();
  void close_span(bool drop_unfinished_run);
  [[nodiscard]] std::size_t span_ranges_per_run() const;
  // Decodes the configured image and attributes its ranges to batch_ (the launches of the
  // sessions it holds, in order).
  void decode_batch(const std::string& what);
  // Forgets the open batch, leaving the CUPTI object ready for the next SetConfig.
  void discard_batch(bool stop_first) noexcept;
  void stop_open_session() noexcept;
  // Runs an empty session whose first Start fixes the profiler's capacity at `ranges` per pass.
  void prime(std::size_t ranges);
  // Sizes image_ for exactly `ranges` ranges.
  void size_image(std::size_t ranges);
  // Makes image_ hold at least `ranges` ranges (all the profiler holds), re-enabling the
  // profiler with that capacity when its own is smaller.
  void ensure_capacity(std::size_t ranges);
  [[nodiscard]] std::vector<DecodedRange> evaluate_ranges(bool with_names);
  [[nodiscard]] std::vector<std::string> pass_trace() const;
  void rethrow_pending_error();
  void shutdown() noexcept;

  Logger log_;
  int device_ = 0;
  void* context_ = nullptr;  // the CUcontext profiled (launches into others are not ranges)
  CollectionPlan plan_;
  MetricColumns columns_;
  std::vector<const char*> column_ptrs_;
  std::unique_ptr<ProfilerHost> host_;  // holds the metric set; evaluates
  std::vector<std::uint8_t> config_;
  std::unique_ptr<RangeProfiler> profiler_;
  std::unique_ptr<CuptiCheckpoint> checkpoint_;  // metric_replay "checkpoint" with several passes
  std::vector<std::uint8_t> image_;
  std::size_t capacity_ = 0;  // ranges image_ holds
  bool batch_open_ = false;   // image_ is configured and holds sessions not decoded yet
  std::vector<ProfiledLaunch> batch_;  // launches of its stopped sessions, in order
  RunId batch_first_;                  // the measured runs it covers (messages)
  RunId batch_last_;
  std::uint64_t batch_start_ns_ = 0;
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
  bool graph_in_session_ = false;         // a cuGraphLaunch was profiled in the open session
  std::size_t run_launches_ = 0;          // launches in the current run (sizing)
  std::size_t session_launches_ = 0;      // launches in the current annotation (sizing)
  std::size_t run_annotations_ = 0;       // annotations entered in the current run (sizing)
  std::size_t cycle_launches_ = 0;        // launches profiled since the previous run ended (sizing)
  std::size_t max_run_launches_ = 0;
  std::size_t max_measured_launches_ = 0;  // of measured runs only (span sizing)
  std::size_t max_annotation_launches_ = 0;
  std::size_t max_run_annotations_ = 0;
  std::size_t max_cycle_launches_ = 0;
  std::uint64_t next_sequence_ = 0;
  std::exception_ptr error_;

  std::vector<KernelRecord> pending_;
  // Cost accounting for the DEBUG summary.
  std::size_t sessions_ = 0;          // Start..Stop pairs
  std::size_t batches_ = 0;           // decodes
  std::size_t profiled_kernels_ = 0;  // launches profiled
  std::size_t attributed_ = 0;        // records produced
  double batch_ms_ = 0;               // wall time from SetConfig to the end of decoding
  double evaluate_ms_ = 0;
};

}  // namespace kscope::cupti
