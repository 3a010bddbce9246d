#pragma once
// The Session drives a sweep: configs x (warm-up + measured) runs, with the run environment
// (thermal guard, cache flush, synchronisation) and the collector around every run, the info
// collectors at their scopes, progress on the console, and finished runs streamed to the
// journal.

#include <optional>
#include <vector>

#include "core/collector.hpp"
#include "core/info_collection.hpp"
#include "core/kernel_count_check.hpp"
#include "core/session_phases.hpp"
#include "core/logger.hpp"
#include "core/run_environment.hpp"
#include "core/run_sink.hpp"
#include "kscope/config.hpp"
#include "kscope/profile.hpp"

namespace kscope {

class Session {
 public:
  /// What the session measured: every record and what happened in every measured run.
  struct Output {
    std::vector<KernelRecord> records;
    std::vector<RunLog> runs;
  };

  /// `sink` may be null (no journal).
  Session(Collector& collector, RunEnvironment& environment, RunSink* sink, const Logger& log);

  /// Runs the sweep. If `fn` or the tool throws, what was measured is handed to the sink, the
  /// collector is stopped and the exception propagates. With a collector whose flushes are
  /// complete (Collector::flush_is_complete: the cupti tool's timing path), every batch of
  /// finished runs is checked against the kernel-count rules as soon as its records arrive
  /// (core/kernel_count_check.hpp), so a config that breaks them stops the sweep when it is
  /// measured (ExtractionError); otherwise extraction checks them after the sweep.
  Output run(const SessionInfo& info, const std::vector<Config>& configs, const Benchmark& fn);

 private:
  RunLog execute(const RunId& run, const Config& config, const Benchmark& fn);
  void flush_to_sink(Output& out, bool final_records);

  Collector& collector_;
  RunEnvironment& env_;
  RunSink* sink_;
  const Logger& log_;
  std::vector<RunLog> pending_runs_;
  SessionPhases phases_;
  InfoCollection* info_ = nullptr;  // the info collectors of the run() in progress
  std::optional<KernelCountCheck> counts_;  // the kernel-count rules of the run() in progress
  const std::vector<std::string>* ignore_kernel_list_ = nullptr;
};

}  // namespace kscope
