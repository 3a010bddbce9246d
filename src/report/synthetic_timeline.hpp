#pragma once
// A stand-in timeline for results saved without one (files from before kscope recorded it, ncu
// and sanitizer sessions): every measured run end to end in sweep order, each with one
// "benchmark" phase around its annotations, placed one after another for the length their
// gpu__time_duration says (1 us when they have none). Only the order and the lengths mean
// anything; the trace says so.

#include "kscope/results.hpp"

namespace kscope::report {

[[nodiscard]] Timeline synthetic_timeline(const Results& results);

}  // namespace kscope::report
