#pragma once
// The Session drives a sweep: configs x (warm-up + measured) runs, with the run environment
// (thermal guard, cache flush, synchronisation) and the collector around every run, the info
// collectors at their scopes, progress on the console, and finished runs streamed to the
// journal.

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "core/collector.hpp"
#include "core/config_failure.hpp"
#include "core/info_collection.hpp"
#include "core/host_times.hpp"
#include "core/logger.hpp"
#include "core/progress.hpp"
#include "core/record_store.hpp"
#include "core/run_environment.hpp"
#include "core/run_recorder.hpp"
#include "core/run_sink.hpp"
#include "kscope/config.hpp"
#include "kscope/profile.hpp"
#include "kscope/results.hpp"

namespace kscope {

class Session {
 public:
  /// What the session measured: every record and what happened in every measured run.
  struct Output {
    /// Shared with the journal's last line, which writes the last of them on its thread
    /// (RecordStore::share): they never change in place once run() returns.
    RecordStore records;
    std::vector<RunLog> runs;
    std::vector<PhaseSpan> phases;  ///< host timeline of the session (HostTimes spans)
    /// Configs whose benchmark threw with on_config_error "skip" (their runs and records are
    /// still in `runs` and `records`, as in the journal; drop_failed_configs() removes them).
    std::vector<ConfigFailure> failures;
    std::vector<ConfigStop> stops;  ///< Options::adaptive: how each config ended
  };

  /// `sink` may be null (no journal).
  Session(Collector& collector, RunEnvironment& environment, RunSink* sink, const Logger& log);
  Session(const Session&) = delete;             // non-copyable
  Session& operator=(const Session&) = delete;  // non-copyable

  /// Called after every config that finished (or failed): a re-run child's budget, rank 0's
  /// count of all ranks. Returning true ends the sweep there, as if those were all its configs.
  void set_after_config(std::function<bool()> hook) { after_config_ = std::move(hook); }
  /// The call's host times, where run() records its fixed steps (the session's set-up, the
  /// tool's begin and end, the last journal write) after the caller's, and its runs' phases;
  /// null: its own.
  void set_host_times(HostTimes* times) { times_ = times ? times : &own_times_; }

  /// Runs the sweep. Runs are numbered by Config::index(), so `configs` may be a part of a sweep
  /// (a resumed sweep, a re-run child's share). If the tool throws, or `fn` throws and
  /// on_config_error is "raise", what was measured is handed to the sink, the collector is
  /// stopped and the exception propagates; with "skip" an exception of `fn` fails its config
  /// (Output::failures) and the sweep goes on, unless the device is unusable afterwards.
  /// With a collector whose flushes are complete (Collector::flush_is_complete: the cupti
  /// tool's timing path), every batch of finished runs is checked against the kernel-count rules
  /// as soon as its records arrive (core/kernel_count_check.hpp), so a config that breaks them
  /// stops the sweep when it is measured (ExtractionError). With any other collector extraction
  /// checks them after the sweep, and a finished run reaches the sink only with its records
  /// (core/run_recorder.hpp), so that a journal cut after any line resumes right.
  Output run(const SessionInfo& info, const std::vector<Config>& configs, const Benchmark& fn);

 private:
  /// What the configs of the run() in progress share.
  struct Sweep {
    const Options& opt;
    const Benchmark& fn;
    Output& out;
    Progress& progress;
    InfoCollection& info;
  };
  /// Resets what one run() keeps.
  void reset(const Options& opt);
  /// The collector's begin(); if it throws, the journal is closed with the reason. Then the
  /// recorder for this run(): as complete as the collector's flushes, with the kernel-count
  /// rules of `configs`.
  void begin_tool(const SessionInfo& info, const std::vector<Config>& configs);
  /// One config's warm-up and measured runs. Returns false when the sweep ends after it.
  bool run_config(std::size_t c, std::size_t configs, const Config& config, Sweep& sweep);
  /// Its box, progress line and CONFIG info collectors.
  void start_config(std::size_t c, std::size_t configs, const Config& config, Sweep& sweep);
  /// The fixed number of measured runs of a config (Options::runs).
  void run_fixed(const Config& config, Sweep& sweep);
  /// Options::adaptive: the measured runs of a config in batches until the stopping rule
  /// stops them (session_adaptive.cpp).
  void run_adaptive(const Config& config, Sweep& sweep);
  /// A config failed with on_config_error "skip": its runs so far are journaled, then the failure.
  void record_failure(ConfigFailure failure, Sweep& sweep);
  /// Whether the after-config hook ends the sweep.
  [[nodiscard]] bool stops_after_config() const { return after_config_ && after_config_(); }
  /// After the last config: the tool's end, the last journal write, the journal's close.
  void finish(Output& out, Progress& progress, HostClock::time_point loop_start);
  /// The sweep failed with `error`: hands over what was measured, then close_failed().
  void fail(Output& out, const std::string& error);
  /// Stops the tool, closes the journal with `error` and waits for it (its last line may read
  /// the output's records).
  void close_failed(const std::string& error);
  /// One run: every pass of it; returns the first pass's log.
  RunLog execute(const RunId& run, const Config& config, Sweep& sweep);
  /// One execution of the benchmark with everything around it (docs/architecture.md, "Per-run
  /// and per-region order").
  RunLog execute_pass(const RunId& run, int pass, const Config& config, Sweep& sweep);
  /// Inside the handler of the benchmark's exception: ends the run and rethrows it, or with
  /// on_config_error "skip" throws the config's failure (FailedRun).
  [[noreturn]] void fail_pass(const RunId& run, int pass, const Config& config,
                              InfoCollection& info);
  void end_failed_run(const RunId& run, int pass, const Config& config,
                      const ConfigFailure& failure);
  /// Journals the runs finished since the last write with the records the tool hands over now.
  void flush_to_sink(Output& out);
  /// The session's last write: the tool's end() and the last records, which the journal shares
  /// with `out` (RecordStore::share), without a copy.
  void end_tool(Output& out);
  /// Moves `runs` and `records` into `out`.
  static void keep(Output& out, std::vector<RunLog> runs, std::vector<KernelRecord> records);
  /// Hands the finished runs not handed yet to the sink (RunSink::add_runs) with their phases.
  void stage_runs(Output& out);
  /// Warns, once per run(), when the benchmark returned with `annotation` still open.
  void warn_if_left_open(const std::string& annotation, const RunId& run, const Config& config);
  /// Moves the recorded phase spans into `out` and hands them to the sink.
  void take_phases(Output& out);

  Collector& collector_;
  RunEnvironment& env_;
  RunSink* sink_;
  const Logger& log_;
  RunRecorder recorder_;            // the finished runs on their way to the sink
  HostTimes own_times_;             // without set_host_times()
  HostTimes* times_ = &own_times_;
  bool skip_failures_ = false;      // on_config_error "skip"
  bool warned_left_open_ = false;   // warn_if_left_open said it in this run()
  std::function<bool()> after_config_;
};

}  // namespace kscope
