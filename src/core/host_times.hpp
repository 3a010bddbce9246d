#pragma once
// The host time of a profile() or time() call, on one clock (core/host_clock.hpp), every interval
// taken from one mark and recorded here under its name: the call's fixed steps (device, tool,
// journal, tables, ...) and the phases of its runs (environment, tool, benchmark,
// synchronisation, journal, and the region entries inside the benchmark). At DEBUG they are two
// lines, so that what a call costs besides its runs, and kscope's own overhead per run, are
// visible:
//   "fixed cost (ms): device 0.01, metadata 0.31, tool 0.02, ..., total 4.20; minor page faults
//   (this thread): tables 180, total 260" (the page faults of the steps that touched fresh
//   memory: a fault costs microseconds on a VM), and
//   "host time per run (us, mean over N executions): environment before 1.2, tool before 0.1, ...".
// Every lap of a run's phase is also kept as a timed span of that run (take_spans), the host
// timeline that the trace writer draws.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/host_clock.hpp"
#include "core/kernel_record.hpp"
#include "kscope/timeline.hpp"

namespace kscope {

class HostTimes {
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

  /// `count_faults`: also count each fixed step's page faults (a system call per step: for DEBUG).
  explicit HostTimes(bool count_faults = false);

  /// The next interval starts now: the time since the last one belongs to none (between runs).
  void start() { mark_ = HostClock::now(); }
  /// The same, and the next fixed step's page faults are counted from now: what came since the
  /// last step (the runs) is no fixed cost.
  void skip();
  /// Where the next interval starts: the end of the last one, or start().
  [[nodiscard]] HostClock::time_point mark() const { return mark_; }

  /// The time since the mark as fixed step `name`, with the page faults since the last step or
  /// skip(); the mark moves to now.
  void step(std::string name);

  /// The run (and replay pass) the following phases belong to; nullopt: outside any run.
  void set_run(const std::optional<RunId>& run, int pass) {
    run_ = run;
    pass_ = pass;
  }
  /// The time since the mark as `phase`, kept as a span of the current run; the mark moves to now.
  void lap(Phase phase) {
    const HostClock::time_point start = mark_;
    record(phase, start, advance(), true, {});
  }
  /// The same without a span (work inside a run that the timeline does not draw).
  void lap_tally(Phase phase) {
    const HostClock::time_point start = mark_;
    record(phase, start, advance(), false, {});
  }
  /// [start, end) as `phase` with a span, without moving the mark (a phase nested in another,
  /// such as the entry of region `annotation` inside the benchmark).
  void add(Phase phase, HostClock::time_point start, HostClock::time_point end,
           const std::string& annotation) {
    record(phase, start, end, true, annotation);
  }
  /// `d` as `phase`, without a span (work between runs, not drawn on the timeline).
  void tally(Phase phase, HostClock::duration d) { totals_[phase] += d; }
  /// One more execution of a run: what the per-run line divides by.
  void count_run() { ++runs_; }
  /// Forgets the phases and spans (a session starts its own), keeping the fixed steps.
  void reset_phases();
  /// The spans recorded since the previous call, oldest first.
  [[nodiscard]] std::vector<PhaseSpan> take_spans();
  /// The name of `phase` in summaries and spans: "environment before", "benchmark", ...
  [[nodiscard]] static const char* name(Phase phase);

  /// "fixed cost (ms): a 1.20, b 0.03, total 1.23; minor page faults (this thread): a 40, total
  /// 41" (the faults of steps with at least 10).
  [[nodiscard]] std::string fixed_cost_summary() const;
  /// "host time per run (us, mean over N executions): environment before 1.2, tool before 0.1,
  /// ...". With `loop`, the wall time of the session's config loop, it ends with what the phases
  /// do not cover ("outside the phases 0.8": config boundaries, handing runs to the journal,
  /// progress).
  [[nodiscard]] std::string per_run_summary(std::optional<HostClock::duration> loop = {}) const;

 private:
  // Now, which becomes the mark: the end of a lap.
  HostClock::time_point advance() { return mark_ = HostClock::now(); }
  // The one place a phase's interval is recorded: its total, and its span of the current run.
  void record(Phase phase, HostClock::time_point start, HostClock::time_point end, bool span,
              const std::string& annotation) {
    totals_[phase] += end - start;
    if (span) spans_.push_back({phase, run_, pass_, start, end, annotation});
  }
  // The calling thread's minor page faults so far (0 when not counted or the system does not
  // say).
  [[nodiscard]] long minor_faults() const;

  HostClock::time_point mark_;
  // The fixed steps, in order.
  struct Step {
    std::string name;
    HostClock::duration time;
    long faults;
  };
  bool count_faults_;
  std::vector<Step> steps_;
  long faults_;  // at the last step or skip()
  // The phases.
  std::array<HostClock::duration, kCount> totals_{};
  std::size_t runs_ = 0;
  struct Span {
    Phase phase;
    std::optional<RunId> run;
    int pass;
    HostClock::time_point start;
    HostClock::time_point end;
    std::string annotation;
  };
  std::vector<Span> spans_;
  std::optional<RunId> run_;
  int pass_ = 0;
};

}  // namespace kscope
