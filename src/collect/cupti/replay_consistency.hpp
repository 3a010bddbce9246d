#pragma once
// User replay executes a measured run once per counter pass and CUPTI combines the passes, so
// every pass must do the same work. Each pass leaves a trace (one entry per kernel launch or per
// annotation range); a pass whose trace differs from the first pass's is the obvious sign of a
// non-idempotent benchmark, and is reported instead of silently mixing counters.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope::cupti {

/// Throws ToolError naming the first difference between `current` (pass `pass`, 0-based) and
/// `first` (pass 0) of `run`, and what to do: `range_mode` chooses the advice (replay_mode
/// 'kernel' vs metric_replay 'kernel').
void check_same_as_first_pass(const std::vector<std::string>& first,
                              const std::vector<std::string>& current, int pass,
                              const RunId& run, bool range_mode);

}  // namespace kscope::cupti
