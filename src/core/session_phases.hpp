#pragma once
// Where the host time of a sweep goes, phase by phase (environment, tool, benchmark,
// synchronisation, journal, and the region entries inside the benchmark), so that kscope's own
// overhead per run is visible at DEBUG. Every lap is also kept as a timed span of the current
// run (take_spans), the host timeline that the trace writer draws.

#include <array>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/timeline.hpp"

namespace kscope {

class SessionPhases {
 public:
  enum Phase : std::size_t {
    kEnvironmentBefore,  ///< info collectors, thermal guard, telemetry, cache flush
    kToolBefore,         ///< the collector's before_run
    kBenchmark,          ///< the user's callable (launches included)
    kSynchronize,        ///< waiting for the device
    kToolAfter,          ///< the collector's after_run, run bookkeeping
    kEnvironmentAfter,   ///< telemetry after the run
    kJournal,            ///< tool flushes, journal appends, the kernel-count check of their runs
    kRegionEntry,        ///< inside kBenchmark: the entry of annotated regions (cache flush,
                         ///< ANNOTATION-scope info collectors)
    kConfigStart,        ///< tally only: a config's start (its box, progress, CONFIG collectors)
    kStaging,            ///< tally only: finished runs and phases handed to the journal's thread
    kCount
  };

  void start() { mark_ = Clock::now(); }
  /// Adds the time since the previous start()/lap() to `phase` (and keeps it as a span).
  void lap(Phase phase) {
    const auto now = Clock::now();
    totals_[phase] += now - mark_;
    spans_.push_back({phase, run_, pass_, mark_, now, {}});
    mark_ = now;
  }
  /// Adds [start, end) to `phase` without moving the mark (a phase nested in another one, such
  /// as the entry of region `annotation` inside the benchmark).
  void add(Phase phase, std::chrono::steady_clock::time_point start,
           std::chrono::steady_clock::time_point end, const std::string& annotation) {
    totals_[phase] += end - start;
    spans_.push_back({phase, run_, pass_, start, end, annotation});
  }
  /// Adds `d` to `phase` without a span (work between runs, not drawn on the timeline).
  void tally(Phase phase, std::chrono::steady_clock::duration d) { totals_[phase] += d; }
  /// Adds the time since the previous start()/lap() to `phase` without a span (work inside a
  /// run that is not drawn on the timeline), and moves the mark.
  void lap_tally(Phase phase) {
    const auto now = Clock::now();
    totals_[phase] += now - mark_;
    mark_ = now;
  }
  void count_run() { ++runs_; }
  /// The run (and replay pass) the following laps belong to; nullopt: outside any run.
  void set_run(const std::optional<RunId>& run, int pass) {
    run_ = run;
    pass_ = pass;
  }
  /// The spans recorded since the previous call, oldest first.
  [[nodiscard]] std::vector<PhaseSpan> take_spans();
  /// The name of `phase` in summaries and spans: "environment before", "benchmark", ...
  [[nodiscard]] static const char* name(Phase phase);

  /// "per run (us, mean over N executions): environment before 1.2, tool before 0.1, ...". With
  /// `loop`, the wall time of the session's config loop, it ends with what the phases do not
  /// cover ("outside the phases 0.8": config boundaries, handing runs to the journal, progress).
  [[nodiscard]] std::string summary(std::optional<std::chrono::steady_clock::duration> loop = {}) const;

 private:
  using Clock = std::chrono::steady_clock;
  std::array<Clock::duration, kCount> totals_{};
  Clock::time_point mark_{};
  std::size_t runs_ = 0;
  struct Span {
    Phase phase;
    std::optional<RunId> run;
    int pass;
    Clock::time_point start;
    Clock::time_point end;
    std::string annotation;
  };
  std::vector<Span> spans_;
  std::optional<RunId> run_;
  int pass_ = 0;
};

}  // namespace kscope
