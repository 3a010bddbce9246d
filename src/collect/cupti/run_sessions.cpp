#include "collect/cupti/run_sessions.hpp"

#include <algorithm>

#include "collect/cupti/replay_consistency.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {

void RunSessions::prepare_pass(const RunId& run, int pass) {
  if (!checkpoint_ || run.warmup) return;
  if (pass == 0) {
    checkpoint_->save();
  } else {
    checkpoint_->restore();
  }
}

void RunSessions::before_run(const RunId& run, int pass) {
  if (pass == 0) run_done_ = false;
  if (run.warmup || run_done_) return;
  if (pass == 0) {
    const auto sizes = t_.launches.sizes();
    t_.batch.open(t_.plan.user_range ? std::max(kMinUserRanges, 2 * sizes.run_annotations)
                                     : std::max(kMinRunRanges, 2 * sizes.run_launches),
                  run);
    first_trace_.clear();
  }
  t_.launches.clear_pushed();
  start_session(t_.plan.user_range ? "the annotations of the run" : "the run");
}

void RunSessions::on_annotation(bool entering, const std::string& name) {
  if (run_done_ || !t_.plan.user_range || !t_.launches.profiling()) return;
  if (entering) {
    t_.profiler.push_range(name);
    t_.launches.range_pushed(name);
  } else if (t_.launches.take_open_range()) {
    t_.profiler.pop_range();
  }
}

void RunSessions::after_run(const RunId& run, int pass) {
  t_.launches.rethrow();
  if (run.warmup || run_done_) return;
  if (t_.launches.take_open_range()) t_.profiler.pop_range();
  (void)t_.launches.close_session(nullptr);  // the pass's launches stay for the checks below
  const auto stop = t_.profiler.stop();
  const bool user = t_.plan.user_range;
  if (!user) check_no_graph_launch(t_.launches.session_launches(), {run, t_.device, t_.launches.session_what()});
  const auto trace = t_.launches.pass_trace(user);
  if (pass == 0) {
    first_trace_ = trace;
  } else {
    check_same_as_first_pass(first_trace_, trace, pass, run,
                             user ? UserReplay::kRange
                             : checkpoint_ ? UserReplay::kCheckpoint
                                           : UserReplay::kApplication);
  }
  if (!stop.all_passes_submitted) {
    if (pass + 1 < t_.plan.passes_per_run) return;
    t_.batch.discard(false);
    throw ToolError("The CUPTI range profiler still expects passes after " +
                    std::to_string(t_.plan.passes_per_run) + " executions of config " +
                    std::to_string(run.config) + " run " + std::to_string(run.run) +
                    " (pass index " + std::to_string(stop.pass_index) +
                    "). Report this with a DEBUG log (verbosity kDebug).");
  }
  run_done_ = true;
  t_.batch.add(t_.launches.session_launches());  // the last pass's, equal to every other pass's
  const auto pushed = t_.launches.pushed();
  t_.batch.decode(t_.launches.session_what(), user ? &pushed : nullptr);
}

}  // namespace kscope::cupti
