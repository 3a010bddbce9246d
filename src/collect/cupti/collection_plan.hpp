#pragma once
// How the cupti tool collects hardware counters for a session: which CUPTI range and replay
// modes, whether a profiler session spans one annotation or one whole run, and how many times the
// Session must execute each measured run. A pure decision over the options and the pass count.

#include <cstddef>
#include <string>

namespace kscope::cupti {

/// What one CUPTI Start..Stop covers.
enum class SessionScope {
  kAnnotation,  ///< from annotation enter to exit: only annotated kernels are profiled
  kRun,         ///< one execution of the benchmark: every kernel of the run is profiled
};

struct CollectionPlan {
  bool user_range = false;     ///< CUPTI_UserRange (one range per annotation), else CUPTI_AutoRange
  bool kernel_replay = false;  ///< CUPTI_KernelReplay (CUPTI saves/restores memory per pass), else UserReplay
  SessionScope scope = SessionScope::kAnnotation;
  int passes_per_run = 1;      ///< executions of each measured run (user replay re-executes)
  std::size_t counter_passes = 1;  ///< passes the metric set needs

  /// One line for DEBUG output: modes, passes, what is serialised, saved or re-executed.
  [[nodiscard]] std::string describe() const;
};

/// replay_mode "range": UserRange + UserReplay over whole runs (re-executed once per pass).
/// replay_mode "kernel": AutoRange per annotation; one-pass sets need no replay (UserReplay, one
/// pass), multi-pass sets use KernelReplay unless metric_replay is "application", which
/// re-executes whole runs once per pass (AutoRange + UserReplay, no save/restore).
[[nodiscard]] CollectionPlan plan_collection(const std::string& replay_mode,
                                             const std::string& metric_replay,
                                             std::size_t counter_passes);

}  // namespace kscope::cupti
