#pragma once
// Receives finished runs while a session is still going (the journal implements it), so that
// a crash or Ctrl-C keeps what was measured.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/record_slice.hpp"
#include "kscope/results.hpp"
#include "kscope/timeline.hpp"

namespace kscope {

class RunSink {
 public:
  virtual ~RunSink() = default;
  /// Finished runs handed over before their records arrive: a journal encodes them now and
  /// writes them with the next append(), never without their records. Only runs whose records
  /// that append brings come this way (a collector's complete flushes: core/run_recorder.hpp).
  virtual void add_runs(std::vector<RunLog> runs) = 0;
  /// Appends finished runs (with those of add_runs since the last append) and their records,
  /// which it shares read-only (RecordSlice: a copy, or the session's own for its last line). A
  /// journal writes them on its own thread, in order, at once (JournalWriter::finish waits),
  /// keeping them alive while it reads them.
  virtual void append(const std::vector<RunLog>& runs, RecordSlice records) = 0;
  /// A config failed with Options::on_config_error "skip"; must be durable when it returns.
  virtual void append_failure(const ConfigFailure& failure) = 0;
  /// Options::adaptive: config `stop.config` took its last run (after its runs were appended).
  virtual void config_stopped(const ConfigStop& stop) { (void)stop; }
  /// Host phase spans recorded since the previous call; a journal writes them with its next line.
  virtual void add_phases(const std::vector<PhaseSpan>& spans) { (void)spans; }
  /// The session ended; `error` is empty on success. A journal finishes writing on its thread
  /// (its owner waits for it: JournalWriter::finish).
  virtual void close(const std::string& error) = 0;
};

}  // namespace kscope
