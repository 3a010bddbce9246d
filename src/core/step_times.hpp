#pragma once
// The host time of a profile() call's fixed steps (device, tool, NVML, journal, tables, ...), so
// that what a call costs besides its runs is visible at DEBUG, step by step:
//   "fixed cost (ms): device 0.01, metadata 0.31, tool 0.02, ..., total 4.20".

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace kscope {

class StepTimes {
 public:
  StepTimes() : mark_(Clock::now()) {}
  /// Adds the time since the previous lap (or construction, or skip()) as step `name`.
  void lap(std::string name) {
    const auto now = Clock::now();
    steps_.emplace_back(std::move(name), now - mark_);
    mark_ = now;
  }
  /// Starts the next step now: the time since the previous lap belongs to no step (the runs).
  void skip() { mark_ = Clock::now(); }
  /// "fixed cost (ms): a 1.20, b 0.03, total 1.23".
  [[nodiscard]] std::string summary() const;

 private:
  using Clock = std::chrono::steady_clock;
  std::vector<std::pair<std::string, Clock::duration>> steps_;
  Clock::time_point mark_;
};

}  // namespace kscope
