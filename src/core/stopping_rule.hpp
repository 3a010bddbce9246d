#pragma once
// The adaptive run count of runs="auto" (docs/options.md, "Adaptive runs"): after each batch of
// measured runs of a config, decide from the values so far whether to stop and, if not, how many
// runs the next batch has. Pure: tested on synthetic sample streams
// (tests/cpp/core/stopping_rule_test.cpp); the Session runs the batches.

#include <cstddef>
#include <optional>
#include <vector>

namespace kscope {

/// Why a config stopped taking runs (the StopReason column).
enum class StopReason {
  kTarget,      ///< "target": every series' CI half-width is within target_rel_ci of its mean
  kMaxRuns,     ///< "max_runs": max_runs reached first
  kTimeBudget,  ///< "time_budget": the config's time budget was spent first
  kNoiseFloor,  ///< "noise_floor": four times the runs did not shrink the CI by a quarter
  kNoValues,    ///< "no_values": min_runs runs measured no value to judge (no kernels, failures)
};

/// "target", "max_runs", "time_budget", "noise_floor", "no_values".
[[nodiscard]] const char* to_string(StopReason reason);

/// The criteria of runs="auto" (Options::adaptive: target_rel_ci, min_runs, max_runs, time_budget).
struct StopCriteria {
  double target_rel_ci = 0.005;  ///< CI95 half-width / |mean| to reach, per series
  std::size_t min_runs = 5;      ///< first batch; never fewer
  std::size_t max_runs = 10000;  ///< never more
  double time_budget_s = 1.0;    ///< seconds of measured runs per config
};

/// The noise floor is judged only from this many runs on (fewer give too rough an estimate of
/// the interval's width).
inline constexpr std::size_t kNoiseFloorMinRuns = 20;
/// Growth of the run count over which the noise floor is judged, and the least relative
/// shrink of the CI expected over it: independent runs halve the CI when the runs quadruple, so
/// a CI that shrank by less than a quarter means the values drift or are not independent, and
/// more runs would not reach the target.
inline constexpr std::size_t kNoiseFloorGrowth = 4;
inline constexpr double kNoiseFloorMaxRatio = 0.75;
/// A batch has at most this many times the runs so far: a rough early estimate of the spread
/// cannot overshoot by more, and a config needs few batches (each costs a CUPTI buffer flush,
/// ~0.6 ms on an H200, worth 10-20 runs of a short kernel).
inline constexpr std::size_t kMaxBatchGrowth = 3;

class StoppingRule {
 public:
  explicit StoppingRule(StopCriteria criteria);

  /// Runs of the first batch (min_runs).
  [[nodiscard]] std::size_t first_batch() const { return criteria_.min_runs; }

  /// After a batch. `series`: for every (annotation, metric) of the config, one value per
  /// measured run so far (NaN: no value); `runs`: measured runs so far; `elapsed_s`: seconds since
  /// the config's first measured run. Returns why to stop, or nullopt to run next_batch() more.
  /// Checked in order: target, max_runs, time budget, noise floor.
  [[nodiscard]] std::optional<StopReason> after_batch(
      const std::vector<std::vector<double>>& series, std::size_t runs, double elapsed_s);

  /// Runs of the next batch: the runs the target needs at the current spread (n (ci / target)^2
  /// in all), at least 1, at most kMaxBatchGrowth times as many as so far (so that a rough
  /// early estimate cannot overshoot), within max_runs and the time left at the current pace.
  [[nodiscard]] std::size_t next_batch() const { return next_batch_; }

  /// The largest relative CI95 half-width over the series at the last decision (NaN: none).
  [[nodiscard]] double rel_ci() const { return rel_ci_; }

 private:
  struct Point {
    std::size_t runs;
    double rel_ci;
  };
  StopCriteria criteria_;
  std::vector<Point> history_;
  std::size_t next_batch_ = 0;
  double rel_ci_ = 0;
};

}  // namespace kscope
