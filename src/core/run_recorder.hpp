#pragma once
// The journaling of a session's finished runs: the runs finished since the last write, which of
// them the sink has had already (RunSink::add_runs, while the device still runs the next run),
// when the next write is due, the hand-over of each write's runs with their records and the
// kernel-count check of those runs. With a collector whose flushes are not complete (the range
// profiler decodes in batches), a run waits here until its records arrive, so that every journal
// line holds its runs' records and a journal cut after any line resumes right (the runs it
// lacks are measured again).

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_count_check.hpp"
#include "core/kernel_record.hpp"
#include "core/record_slice.hpp"
#include "core/run_sink.hpp"
#include "kscope/results.hpp"

namespace kscope {

class RunRecorder {
 public:
  /// How a recorder hands runs over and checks them.
  struct Rules {
    /// Collector::flush_is_complete: every flush hands over every record of the runs finished
    /// so far. Otherwise the records come as Collector::flush promises then: whole runs, in the
    /// order they ran.
    bool complete_flushes = true;
    bool every_config = false;  ///< a write is due at every config's end (on_config_error "skip")
    /// With complete flushes: the kernel-count rules each write's runs are checked against, with
    /// the ignore list (whose owner outlives the recorder); none: not checked.
    std::optional<KernelCountCheck> counts;
    const std::vector<std::string>* ignore_kernel_list = nullptr;
  };

  /// `sink` may be null (no journal).
  RunRecorder(RunSink* sink, Rules rules);
  /// Complete flushes, no kernel-count rules.
  explicit RunRecorder(RunSink* sink = nullptr) : RunRecorder(sink, Rules{}) {}

  /// A measured run finished.
  void add(RunLog run) { finished_.push_back(std::move(run)); }
  /// Whether a finished run waits for stage(); never with incomplete flushes.
  [[nodiscard]] bool has_unstaged() const;
  /// Hands the finished runs the sink has not had to it, to be encoded before their records
  /// arrive (RunSink::add_runs).
  void stage();
  /// Whether a write is due: inside a config a second after the last one (append()), at a
  /// config's end 0.1 s after it, or always with Rules::every_config.
  [[nodiscard]] bool due(bool config_end) const;
  /// The runs finished since the last call, for the session's output. The sink gets those it
  /// has not had with the next append() or append_last(), or, with incomplete flushes, with the
  /// first of them that brings their records.
  [[nodiscard]] std::vector<RunLog> take();
  /// Journals the runs of the last take() with a copy of `records`, the flush's
  /// (RunSink::append). With incomplete flushes: `records` with the runs held up to the last one
  /// (in the order they ran) that a record names, whose records have all arrived then; the runs
  /// after it wait.
  void append(const std::vector<KernelRecord>& records);
  /// The same for the session's last flush, whose records the sink shares (the session's own:
  /// Session::Output::records). With incomplete flushes every run left goes.
  void append_last(RecordSlice records);
  /// With complete flushes and kernel-count rules: checks the finished ones of `runs` (those of
  /// take()) and `records` against them; throws ExtractionError at the first run that breaks one.
  void check(const std::vector<KernelRecord>& records, const std::vector<RunLog>& runs);
  /// Options::adaptive: config `stop.config` took its last run (RunSink::config_stopped). The
  /// sink has it once it has the config's runs.
  void stop(const ConfigStop& stop);

 private:
  // Whether an append of `records` writes a line: there are records, or runs of the last take().
  [[nodiscard]] bool writes(std::size_t records) const;
  // Incomplete flushes: appends `records` with the held runs they complete (all of them: `all`),
  // then the stops that waited for those runs.
  void release(RecordSlice records, bool all);
  // Hands over the stops whose config has no run held any more.
  void release_stops();

  RunSink* sink_;
  Rules rules_;
  std::chrono::steady_clock::time_point last_write_;  // of the last append()
  std::vector<RunLog> finished_;  // since the last take()
  std::size_t staged_ = 0;        // how many of them the sink has had
  std::vector<RunLog> unstaged_;  // the last take()'s runs the sink has not had
  bool took_runs_ = false;        // the last take() returned runs
  // Incomplete flushes: what waits for the records of its runs (those runs, in the order they
  // ran).
  std::vector<RunLog> held_runs_;
  std::vector<ConfigStop> held_stops_;
};

}  // namespace kscope
