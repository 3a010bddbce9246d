#pragma once
/// @file time.hpp
/// kscope::time: one measurement of a callable, without configs, annotations, journal or tables:
/// the GPU time of the kernels it launches per call, called until the mean is precise enough.
/// What an autotuner or a benchmark script needs many times per process (docs/cpp.md, "Timing
/// one callable"; the Python front's kscope.time and kscope.testing.do_bench).

#include <functional>
#include <string>
#include <vector>

#include "kscope/options.hpp"
#include "kscope/results.hpp"

namespace kscope {

/**
 * The options of kscope::time. Each member means what the profile() option of the same name
 * means (docs/options.md); the defaults differ where one measurement of a callable wants them
 * to: the run count is adaptive and one unmeasured call comes first.
 */
struct TimeOptions {
  /// The run count (Options::adaptive): on by default, with its criteria (target_rel_ci,
  /// min_runs, max_runs, time_budget).
  AdaptiveRuns adaptive{true};
  /// Measured calls when adaptive.enabled is false (Options::runs, >= 1).
  int runs = 1;
  /// Unmeasured calls before the measured ones (Options::warmup_runs, >= 0): compilation, lazy
  /// loading, allocations.
  int warmup_runs = 1;
  /// Options::cache_control: "all" flushes the L2 before every kernel of every call, "region"
  /// before every call, outside what is measured; "none" never.
  std::string cache_control = "all";
  /// Options::duration_source: "activity", "profiler" (needs a fixed run count) or "events".
  std::string duration_source = "activity";
  /// Options::ignore_kernel_list: kernels the callable launches that are not counted.
  std::vector<std::string> ignore_kernel_list;
  /// Called before every call of the callable, outside what is measured and before the cache
  /// flush: state a call consumes is reset here (Triton's do_bench resets gradients). Empty: none.
  std::function<void()> setup;
  /// How error messages name the call; also the name of the region each call runs in (an NVTX
  /// range in the domain "kscope", as an annotation's).
  std::string call_name = "kscope::time()";
  /// Options::verbosity: kSilent (default) prints nothing; kInfo the call's progress line;
  /// kDebug also, when the call ends, what it cost: its fixed steps, the host time per call of
  /// the callable and CUPTI's flushes (docs/cost.md, "One measurement").
  Verbosity verbosity = Verbosity::kSilent;
  /// Options::log: where that text goes. Empty: standard output.
  LogSink log;
};

/// What kscope::time measured.
struct Timing {
  /// The statistics a sweep's processed row has, over the measured calls: avg, stddev, min,
  /// max, median, q1, q3, ci95_lower, ci95_upper, num_runs, rel_stddev_pct, stable, kernel (the
  /// first call's kernels, "a|b" for several), unit "ns", stop_reason (with adaptive runs).
  ProcessedRow statistics;
  /// The value of every measured call, ns (the sum of its kernels' durations), in call order.
  std::vector<double> values;
  /// Wall time of the kscope::time call, seconds: warm-up, cache flushes and kscope's own work
  /// included.
  double seconds = 0;

  /// The q quantile (0 <= q <= 1) of `values`, interpolated linearly between order statistics
  /// (numpy's default, as Q1 and Q3); throws InvalidArgument for q outside [0, 1].
  [[nodiscard]] double quantile(double q) const;
  /// The CI95 half-width as a fraction of |avg|: what adaptive runs stop on (NaN for one call).
  [[nodiscard]] double rel_ci() const;
};

/**
 * Calls `fn` `options.warmup_runs` times unmeasured and then, measured, in batches until the
 * stopping rule of runs="auto" stops (or `options.runs` times), and returns the statistics of
 * the GPU time each call's kernels took (their durations summed). Each call runs inside a
 * region named `options.call_name`; with cache_control "all" the L2 is flushed before it.
 *
 * Nothing is written and no thermal guard runs; CUPTI's subscription and the flush buffer are
 * kept for the process after the first call (kscope::release gives them up, docs/cost.md).
 *
 * Throws what profile() throws for bad options and no device; ExtractionError when `fn`
 * launches no kernel; NotSupportedError inside a profile() run. Exceptions of `fn` propagate
 * unchanged.
 */
[[nodiscard]] Timing time(const std::function<void()>& fn, const TimeOptions& options = {});

}  // namespace kscope
