#pragma once
// The journaling of a session's finished runs: the runs finished since the last flush, which of
// them the sink has had already (RunSink::add_runs, while the device still runs the next run),
// and the hand-over of each flush's runs with their records.

#include <cstddef>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/run_sink.hpp"
#include "kscope/results.hpp"

namespace kscope {

class RunRecorder {
 public:
  /// `sink` may be null (no journal).
  explicit RunRecorder(RunSink* sink = nullptr) : sink_(sink) {}

  /// A measured run finished.
  void add(RunLog run) { finished_.push_back(std::move(run)); }
  /// Whether a finished run waits for stage().
  [[nodiscard]] bool has_unstaged() const;
  /// Hands the finished runs the sink has not had to it, to be encoded before their records
  /// arrive (RunSink::add_runs).
  void stage();
  /// The runs finished since the last call, for the session's output. The sink gets those it
  /// has not had with the next append() or append_last().
  [[nodiscard]] std::vector<RunLog> take();
  /// Journals the runs of the last take() with `records`, the flush's (RunSink::append).
  void append(const std::vector<KernelRecord>& records);
  /// The same for the session's last flush, whose `count` records at `records` the sink reads in
  /// place (RunSink::append_last).
  void append_last(const KernelRecord* records, std::size_t count);
  /// Options::adaptive: config `stop.config` took its last run (RunSink::config_stopped).
  void stop(const ConfigStop& stop);

 private:
  // Whether an append of `records` writes a line: there are records, or runs of the last take().
  [[nodiscard]] bool writes(std::size_t records) const;

  RunSink* sink_;
  std::vector<RunLog> finished_;  // since the last take()
  std::size_t staged_ = 0;        // how many of them the sink has had
  std::vector<RunLog> unstaged_;  // the last take()'s runs the sink has not had
  bool took_runs_ = false;        // the last take() returned runs
};

}  // namespace kscope
