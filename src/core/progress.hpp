#pragma once
// The progress display of a sweep: config i/N with its values, a bar, percent and ETA. On a
// terminal it is one line redrawn in place; otherwise one plain line per config and at most one
// every few seconds, without escape codes. With Options::on_progress the caller displays it.

#include <chrono>
#include <cstddef>
#include <string>

#include "core/logger.hpp"

namespace kscope {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  Progress(const Logger& log, std::size_t num_configs, std::size_t runs_per_config);

  /// A new config starts.
  void start_config(std::size_t index, const std::string& label);
  /// One (measured or warm-up) run of the current config finished.
  void run_done();
  /// The current config failed: its remaining runs count as done.
  void skip_config();
  /// The sweep is over: final 100 % line (terminal) and newline.
  void finish();

  /// The line as it would be printed now (for tests).
  [[nodiscard]] std::string line() const;

 private:
  void draw(bool force);
  const Logger& log_;
  std::size_t num_configs_;
  std::size_t runs_per_config_;
  std::size_t total_runs_;
  std::size_t done_runs_ = 0;
  std::size_t config_ = 0;
  std::string label_;
  Clock::time_point start_;
  Clock::time_point last_draw_{};
  bool drawn_ = false;
  bool finished_ = false;
};

/// "HH:MM:SS" for a number of seconds (negative or unknown: "--:--:--").
[[nodiscard]] std::string format_eta(double seconds);

}  // namespace kscope
