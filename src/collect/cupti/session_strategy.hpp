#pragma once
// How one collection scope (CollectionPlan::scope) opens, stops and decodes CUPTI range-profiler
// sessions around the Session's runs and the benchmark's annotations. CounterCollector sets up
// the profiler and picks one strategy; the strategies share the profiler, one CounterBatch and
// the LaunchLog, all passed in, so that they are unit-tested with a fake profiler:
// - SpanSessions (one-pass sets): one session spanning many measured runs;
// - AnnotationSessions (CUPTI's kernel replay, KSCOPE_CUPTI_BATCH): a session per annotation;
// - RunSessions (checkpoint, application and range replay): a session per execution of a run,
//   which the Session executes once per pass.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collect/cupti/collection_plan.hpp"
#include "collect/cupti/counter_batch.hpp"
#include "collect/cupti/launch_log.hpp"
#include "collect/cupti/range_profiler_api.hpp"

namespace kscope::cupti {

// Counter data images are sized for a batch of ranges, at least these many, and twice the
// largest count seen so far (warm-up runs included).
constexpr std::size_t kMinAnnotationRanges = 16;  // auto ranges of one annotation
constexpr std::size_t kMinRunRanges = 64;         // auto ranges of one run (user replay)
constexpr std::size_t kMinUserRanges = 16;        // annotations of one run (range replay)
// The first Start after Enable fixes how many ranges a pass holds and costs ~0.75 ms per range
// on the H200, on top of ~150 ms (RangeProfiler); every further batch of a spanning session
// costs ~16 ms (Stop, decode, SetConfig, Start). For N ranges in all, batches of sqrt(16 N / 0.75)
// ranges cost least; N is guessed as two per measured run (the run's kernel and the cache flush).
constexpr std::size_t kMinSpanRanges = 32;
constexpr std::size_t kMaxInitialSpanRanges = 512;

/// Ranges per pass the first (empty) session sets the profiler up for: what the first batch of
/// the plan's scope asks for before any run was seen.
[[nodiscard]] std::size_t first_session_ranges(const CollectionPlan& plan, std::size_t configs, int runs);

/// What a strategy works with; all of it outlives the strategy.
struct SessionTools {
  RangeProfilerApi& profiler;
  CounterBatch& batch;
  LaunchLog& launches;
  const CollectionPlan& plan;
  int device = 0;
};

class SessionStrategy {
 public:
  explicit SessionStrategy(SessionTools tools) : t_(tools) {}
  virtual ~SessionStrategy() = default;
  SessionStrategy(const SessionStrategy&) = delete;             // holds references
  SessionStrategy& operator=(const SessionStrategy&) = delete;  // holds references

  /// First thing of every execution of a run, before the cache flushes.
  virtual void prepare_pass(const RunId& run, int pass) {
    (void)run;
    (void)pass;
  }
  /// Right before the benchmark executes (the launch log has begun the run).
  virtual void before_run(const RunId& run, int pass) = 0;
  /// After the benchmark returned and the device synchronised (the launch log has ended it).
  virtual void after_run(const RunId& run, int pass) = 0;
  /// An annotation boundary inside a measured run, on the annotation's thread; may throw (the
  /// collector keeps the error for the session thread and stops the open session).
  virtual void on_annotation(bool entering, const std::string& name) {
    (void)entering;
    (void)name;
  }
  /// The Session hands finished runs to the journal: decode what should reach it now.
  virtual void flush() {}
  /// The sweep ended; `failed`: an error is pending. Stops and decodes what is still open.
  virtual void finish(bool failed) { (void)failed; }
  /// Stops an open session without throwing (error paths and the end).
  void stop_open_session() noexcept;

 protected:
  /// Start of a session covering `what` (messages).
  void start_session(const std::string& what);
  /// What stop_open_session does with the launches of the session it stopped: by default the
  /// batch is discarded (its ranges cannot be attributed).
  virtual void keep_stopped(std::vector<ProfiledLaunch> launches);

  SessionTools t_;
};

}  // namespace kscope::cupti
