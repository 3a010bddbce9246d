#pragma once
// How the cupti tool collects hardware counters for a session: which CUPTI range and replay
// modes, what one CUPTI Start..Stop covers, when counter data is decoded, and how many times the
// Session must execute each measured run. A pure decision over the options, the pass count and
// the KSCOPE_CUPTI_BATCH override.
//
// Measured on the H200 (CUDA 13.0, bench/probes/range_profiler_probe.cpp): with user replay, Start and Stop
// cost about 6.5 ms each (the first Start after Enable about 170 ms), while SetConfig, image
// initialisation of a small image, DecodeData and evaluation cost microseconds; several
// Start..Stop sessions append their ranges to one image. So the number of Start..Stop pairs is
// the cost to minimise; with kernel replay Start and Stop cost microseconds.

#include <cstddef>
#include <string>

namespace kscope::cupti {

/// What one CUPTI Start..Stop covers.
enum class SessionScope {
  kAnnotation,  ///< from annotation enter to exit: only annotated kernels are profiled
  kRun,         ///< one execution of the benchmark: every kernel of the run is profiled
  kSpan,        ///< many measured runs, stopped only to decode a batch: every kernel launched
                ///< meanwhile is profiled (also between runs); one-pass sets only
};

/// KSCOPE_CUPTI_BATCH: overrides how one-pass sets (and, for "run", kernel replay) are batched.
enum class BatchOverride {
  kNone,        ///< unset or empty: the default (span for one-pass sets)
  kAnnotation,  ///< "annotation": a session per annotation, decoded at its exit (the safe mode)
  kRun,         ///< "run": a session per annotation, decoded once per run
  kSpan,        ///< "span": the default for one-pass sets, spelled out
};

/// Parses KSCOPE_CUPTI_BATCH (null or "" -> kNone). Throws InvalidArgument naming the allowed
/// values for anything else.
[[nodiscard]] BatchOverride parse_batch_override(const char* value);

struct CollectionPlan {
  bool user_range = false;     ///< CUPTI_UserRange (one range per annotation), else CUPTI_AutoRange
  bool kernel_replay = false;  ///< CUPTI_KernelReplay (CUPTI saves/restores memory per pass), else UserReplay
  /// User replay of whole runs with device memory saved before pass 0 and restored before every
  /// later pass (metric_replay "checkpoint"): every pass starts from the same memory and caches.
  bool restore_memory = false;
  SessionScope scope = SessionScope::kAnnotation;
  /// kAnnotation: one image and one decode for all annotation sessions of a run.
  bool decode_per_run = false;
  int passes_per_run = 1;      ///< executions of each measured run (user replay re-executes)
  std::size_t counter_passes = 1;  ///< passes the metric set needs

  /// One line for DEBUG output: modes, passes, what is serialised, saved or re-executed, and
  /// how sessions are batched.
  [[nodiscard]] std::string describe() const;
};

/// replay_mode "range": UserRange + UserReplay over whole runs (re-executed once per pass, device
/// memory restored between passes unless metric_replay is "application").
/// replay_mode "kernel": AutoRange. One-pass sets need no replay (UserReplay, one pass) and are
/// collected in one session spanning many runs (kSpan) unless `batch` asks for sessions per
/// annotation. Multi-pass sets: metric_replay "checkpoint" (default) re-executes whole runs once
/// per pass (AutoRange + UserReplay, kRun) with device memory restored from a checkpoint before
/// every pass after the first; "application" does the same without the checkpoint; "kernel"
/// uses CUPTI's KernelReplay with a session per annotation (Start/Stop are cheap there; a span
/// would replay every kernel outside annotations too), decoded per annotation or, with `batch`
/// kRun, per run.
[[nodiscard]] CollectionPlan plan_collection(const std::string& replay_mode,
                                             const std::string& metric_replay,
                                             std::size_t counter_passes,
                                             BatchOverride batch = BatchOverride::kNone);

}  // namespace kscope::cupti
