#pragma once
// Where the host time of a sweep goes, phase by phase (environment, tool, benchmark,
// synchronisation, journal, and the region entries inside the benchmark), so that kscope's own
// overhead per run is visible at DEBUG.

#include <array>
#include <chrono>
#include <cstddef>
#include <string>

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
    kJournal,            ///< tool flushes and journal appends
    kRegionEntry,        ///< inside kBenchmark: the entry of annotated regions (cache flush,
                         ///< ANNOTATION-scope info collectors)
    kCount
  };

  void start() { mark_ = Clock::now(); }
  /// Adds the time since the previous start()/lap() to `phase`.
  void lap(Phase phase) {
    const auto now = Clock::now();
    totals_[phase] += now - mark_;
    mark_ = now;
  }
  /// Adds `d` to `phase` without moving the mark (a phase nested in another one).
  void add(Phase phase, std::chrono::steady_clock::duration d) { totals_[phase] += d; }
  void count_run() { ++runs_; }

  /// "per run (us, mean over N executions): environment before 1.2, tool before 0.1, ...".
  [[nodiscard]] std::string summary() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::array<Clock::duration, kCount> totals_{};
  Clock::time_point mark_{};
  std::size_t runs_ = 0;
};

}  // namespace kscope
