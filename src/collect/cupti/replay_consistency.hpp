#pragma once
// User replay executes a measured run once per counter pass and CUPTI combines the passes, so
// every pass must do the same work. Each pass leaves a trace (one entry per kernel launch or per
// annotation range); a pass whose trace differs from the first pass's is the obvious sign of a
// non-idempotent benchmark, and is reported instead of silently mixing counters.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope::cupti {

/// How the runs are replayed, for the advice of the error.
enum class UserReplay {
  kRange,        ///< replay_mode 'range'
  kCheckpoint,   ///< metric_replay 'checkpoint': memory restored between passes
  kApplication,  ///< metric_replay 'application': nothing restored
};

/// Throws ToolError naming the first difference between `current` (pass `pass`, 0-based) and
/// `first` (pass 0) of `run`, what the replay needs, and what to do instead.
void check_same_as_first_pass(const std::vector<std::string>& first,
                              const std::vector<std::string>& current, int pass,
                              const RunId& run, UserReplay replay);

}  // namespace kscope::cupti
