#pragma once
// A CUPTI session per execution of a measured run, which the Session executes once per counter
// pass (user replay; CUPTI combines the passes):
// - metric_replay "checkpoint" (the default for multi-pass sets): device memory is saved before
//   pass 0 and restored before every later pass (prepare_pass, before the cache flushes), so
//   every pass starts from the same memory and, after the flush at region entry, cold caches;
// - metric_replay "application": the same without the checkpoint (idempotent benchmarks);
// - replay_mode "range": user ranges, one pushed and popped per annotation, memory restored as for
//   "checkpoint" unless metric_replay is "application".
// Auto ranges profile every kernel of the run (the flushes too; only annotated ones are
// attributed). Every pass must repeat the first one's launches (replay_consistency).

#include <string>
#include <vector>

#include "collect/cupti/memory_checkpoint.hpp"
#include "collect/cupti/session_strategy.hpp"

namespace kscope::cupti {

class RunSessions : public SessionStrategy {
 public:
  /// `checkpoint` is null unless the plan restores memory; it must outlive the strategy.
  RunSessions(SessionTools tools, MemoryCheckpoint* checkpoint)
      : SessionStrategy(tools), checkpoint_(checkpoint) {}

  void prepare_pass(const RunId& run, int pass) override;
  void before_run(const RunId& run, int pass) override;
  void after_run(const RunId& run, int pass) override;
  void on_annotation(bool entering, const std::string& name) override;

 private:
  MemoryCheckpoint* checkpoint_;
  bool run_done_ = false;  // CUPTI has all passes of the current run
  std::vector<std::string> first_trace_;
};

}  // namespace kscope::cupti
