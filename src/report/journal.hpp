#pragma once
// The journal: a JSON Lines file written while a session runs. Line 1 is the header (options,
// metadata, configs); then one line per batch of finished runs with their kernel records, each
// after a "names" line with the names it uses first (journal_names, journal_compact) (and,
// for the sanitizer tool, a "findings" line); a final "end" line records success or the error. Lines
// are encoded and written on a thread of the journal's own, in call order, each flushed to the
// kernel as it is written, so a crash keeps what was measured while the sweep's thread only hands
// data over; finish() returns once everything is written. load_journal() turns any prefix of it
// back into Results.

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run_sink.hpp"
#include "core/serial_worker.hpp"
#include "kscope/results.hpp"
#include "report/journal_names.hpp"

namespace kscope::report {

/// The schema of the journals this kscope writes: 2.0, the compact lines (names written once,
/// runs, records and phases as arrays). It reads 1.0's too.
inline constexpr const char* kJournalSchemaVersion = "2.0";

class JournalWriter : public RunSink {
 public:
  /// Creates `path` and writes the header line from `header` (name, id, options, metadata,
  /// parameters, configs). Throws kscope::Error when the file cannot be written.
  JournalWriter(const std::string& path, const Results::Data& header);
  ~JournalWriter() override;
  JournalWriter(const JournalWriter&) = delete;             // non-copyable
  JournalWriter& operator=(const JournalWriter&) = delete;  // non-copyable

  /// Runs (their telemetry, the phases so far) encoded on the journal's thread within
  /// kDeferLatency (no wake-up of its own), and written with the next "runs" line.
  void add_runs(std::vector<RunLog> runs) override;
  void append(const std::vector<RunLog>& runs, RecordSlice records) override;
  /// A "runs" line with the given telemetry (nullopt: none), e.g. what a resumed sweep carries
  /// over from the journal it resumes.
  void append(const std::vector<RunLog>& runs, RecordSlice records,
              const std::optional<std::vector<RunTelemetry>>& telemetry);
  /// The same with a copy of `records`, which the caller keeps.
  void append(const std::vector<RunLog>& runs, const std::vector<KernelRecord>& records) {
    append(runs, RecordSlice::copy_of(records));
  }
  void append(const std::vector<RunLog>& runs, const std::vector<KernelRecord>& records,
              const std::optional<std::vector<RunTelemetry>>& telemetry) {
    append(runs, RecordSlice::copy_of(records), telemetry);
  }
  /// Renames the file to `path` (replacing a file there) and goes on writing it: a resumed
  /// sweep writes its journal beside the one it resumes and replaces it once the carried part is
  /// written, so that a crash never leaves neither.
  void move_to(const std::string& path);
  /// A "metadata" line: the device and host, for a tool that learns them after the header was
  /// written (the re-executing tools: from their first part); it replaces the header's.
  void append_metadata(const Metadata& metadata);
  /// Tool "sanitizer": a "findings" line with what compute-sanitizer found.
  void append_findings(const std::vector<Finding>& findings);
  /// Kept until the next line ("runs" or "end"), which carries them as "phases".
  void add_phases(const std::vector<PhaseSpan>& spans) override;
  /// A "failed" line: the config failed (on_config_error "skip"); its runs do not count.
  void append_failure(const ConfigFailure& failure) override;
  /// Options::adaptive: a "stop" line with how a config ended.
  void config_stopped(const ConfigStop& stop) override;
  /// Posts the "end" line; the file is complete once finish() returns or the writer is
  /// destroyed, so that its last write overlaps what the caller does next (the tables).
  void close(const std::string& error) override;
  /// Waits until every line is written; rethrows what the journal's thread threw.
  void finish();
  /// Where each "runs" line takes its per-run GPU telemetry from: called once per line, it
  /// returns the telemetry recorded since the previous call.
  void set_telemetry_source(std::function<std::vector<RunTelemetry>()> source) {
    telemetry_source_ = std::move(source);
  }

 private:
  // The journal's thread: every line is encoded and written there, in the order of the calls.
  SerialWorker& worker();  // started by the first line after the header
  void post(std::function<void()> task);
  void wait();  // the lines posted so far are written (rethrows what the thread threw)
  void write_now(std::string line);  // posts `line` and waits for it
  void write_line(const std::string& line);  // the thread's writes: a line, flushed
  void write_pieces(const std::vector<std::string_view>& pieces);  // a line of these pieces
  // A line could not be written (`error`: errno): closes the file cut back to `line_start` and
  // throws kscope::Error (journal_write_error).
  [[noreturn]] void fail_write(long line_start, int error);
  void stage(const std::vector<RunLog>& runs, const std::vector<RunTelemetry>* telemetry,
             const std::vector<PhaseSpan>& phases);  // the thread's
  // What telemetry_source_ recorded since its previous call; nullopt without a source.
  [[nodiscard]] std::optional<std::vector<RunTelemetry>> telemetry_since_last() const;
  // Posts a "runs" line of `runs` (and those staged) with `records`.
  void post_runs_line(std::vector<RunLog> runs, std::optional<std::vector<RunTelemetry>> telemetry,
                      RecordSlice records);
  // The thread's: the staged runs and `records` as one "runs" line.
  void write_runs_line(const RecordSlice& records);

  std::string path_;
  std::FILE* file_ = nullptr;  // the thread's once it runs
  bool closed_ = false;
  std::function<std::vector<RunTelemetry>()> telemetry_source_;
  std::vector<PhaseSpan> phases_;  // handed over with the next add_runs, runs line or end line
  struct Staged {  // the next "runs" line so far, as JSON text (the thread's)
    std::string runs, telemetry, laps, spans;
    bool has_telemetry = false;
  } staged_;
  JournalNameWriter names_;  // the thread's: the names written so far, and those to write
  std::unique_ptr<SerialWorker> worker_;
};

/// The error of a journal line that could not be written: names `path` and the errno `error`
/// (ENOSPC, EROFS, ...; ENOENT: the file was deleted) and what to do.
[[nodiscard]] std::string journal_write_error(const std::string& path, int error);

/// What a journal's lines hold (read_journal): the header in `data` (name, id, options, metadata,
/// configs, findings, failures, complete, load_warnings; no tables), the finished runs, the records
/// of those runs, and the telemetry.
struct JournalContents {
  Results::Data data;
  bool combined = false;  ///< the session combined kernels (a function the journal cannot store)
  std::vector<RunLog> runs;
  std::vector<KernelRecord> records;
  std::vector<RunTelemetry> telemetry;
  std::vector<PhaseSpan> phases;  ///< the timeline's host phases ("phases" of runs and end lines)
};

/// Whether `path` holds a kscope result document (a JSON object of kind "kscope.results", what
/// Results::write_json writes) rather than a journal; false when it cannot be read.
[[nodiscard]] bool is_result_file(const std::string& path);

/// Reads a journal's lines, with the rules of load_journal(), without building the tables. Each
/// line is read fast (a JsonTape, json_tape.hpp) or, when that declines it, as a tree, which says
/// what is wrong with it; `as_trees`: every line as a tree (the fuzz target compares the two).
[[nodiscard]] JournalContents read_journal(const std::string& path, bool as_trees = false);

/// Reads a journal (complete or cut short) back into Results: extraction and statistics run
/// again over the recorded kernels. A malformed header throws FileFormatError naming the line; a
/// malformed later line is skipped, named with why in Results::load_warnings() (the result is
/// then not complete), except a cut-short last line, which is what a crash leaves and is skipped
/// silently. Derived metrics and combine functions are code and are not
/// stored: a journal of a session that combined kernels fails to load with a message saying so.
[[nodiscard]] Results load_journal(const std::string& path, bool as_trees = false);

}  // namespace kscope::report
