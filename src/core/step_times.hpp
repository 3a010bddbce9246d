#pragma once
// The host time of a profile() call's fixed steps (device, tool, NVML, journal, tables, ...), so
// that what a call costs besides its runs is visible at DEBUG, step by step, with the page
// faults of the steps that touched fresh memory (a fault costs microseconds on a VM):
//   "fixed cost (ms): device 0.01, metadata 0.31, tool 0.02, ..., total 4.20; minor page faults
//   (this thread): tables 180, total 260".

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace kscope {

/// `d` in milliseconds, the unit of every DEBUG cost line.
[[nodiscard]] inline double milliseconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

/// The milliseconds since `t0` on the steady clock.
[[nodiscard]] inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return milliseconds(std::chrono::steady_clock::now() - t0);
}

class StepTimes {
 public:
  /// `count_faults`: also count each step's page faults (a system call per lap: for DEBUG).
  explicit StepTimes(bool count_faults = false)
      : count_faults_(count_faults), mark_(Clock::now()), faults_(minor_faults()) {}
  /// Adds the time since the previous lap (or construction, or skip()) as step `name`.
  void lap(std::string name) {
    const auto now = Clock::now();
    const long faults = minor_faults();
    steps_.push_back({std::move(name), now - mark_, faults - faults_});
    mark_ = now;
    faults_ = faults;
  }
  /// Starts the next step now: the time since the previous lap belongs to no step (the runs).
  void skip() {
    mark_ = Clock::now();
    faults_ = minor_faults();
  }
  /// "fixed cost (ms): a 1.20, b 0.03, total 1.23; minor page faults (this thread): a 40, total 41"
  /// (the faults of steps with at least 10).
  [[nodiscard]] std::string summary() const;

 private:
  using Clock = std::chrono::steady_clock;
  /// The calling thread's minor page faults so far (0 when not counted or the system does not
  /// say).
  [[nodiscard]] long minor_faults() const;
  struct Step {
    std::string name;
    Clock::duration time;
    long faults;
  };
  bool count_faults_;
  std::vector<Step> steps_;
  Clock::time_point mark_;
  long faults_;
};

}  // namespace kscope
