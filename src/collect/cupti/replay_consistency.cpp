#include "collect/cupti/replay_consistency.hpp"

#include "kscope/errors.hpp"

namespace kscope::cupti {

void check_same_as_first_pass(const std::vector<std::string>& first,
                              const std::vector<std::string>& current, int pass,
                              const RunId& run, UserReplay replay) {
  std::size_t i = 0;
  while (i < first.size() && i < current.size() && first[i] == current[i]) ++i;
  if (i == first.size() && i == current.size()) return;
  const std::string expected = i < first.size() ? first[i] : "nothing more";
  const std::string got = i < current.size() ? current[i] : "nothing more";
  const bool range_mode = replay == UserReplay::kRange;
  const std::string mode = range_mode ? "replay_mode 'range'"
                           : replay == UserReplay::kCheckpoint ? "metric_replay 'checkpoint'"
                                                               : "metric_replay 'application'";
  const std::string rule =
      replay == UserReplay::kApplication
          ? "idempotent: no autotuning, no data-dependent launches, no dependence on what earlier "
            "executions left in memory"
          : "no autotuning, no launches that depend on host state; device memory is restored "
            "between passes";
  const std::string advice =
      range_mode ? "Use replay_mode 'kernel' (per-kernel values) or tool 'ncu'."
                 : "Use metric_replay 'kernel' (CUPTI replays each kernel in isolation, saving and "
                   "restoring memory; passes after the first see warm caches) or tool 'ncu'.";
  throw ToolError(
      "Replay pass " + std::to_string(pass + 1) + " of config " + std::to_string(run.config) +
      " run " + std::to_string(run.run) + " did not repeat pass 1: at step " + std::to_string(i + 1) +
      " pass 1 had " + expected + " but pass " + std::to_string(pass + 1) + " had " + got + " (" +
      std::to_string(first.size()) + " vs " + std::to_string(current.size()) + " steps). " + mode +
      " executes the benchmark once per counter pass, so it must launch the same kernels in the "
      "same annotations every time (" + rule + "). " + advice);
}

}  // namespace kscope::cupti
