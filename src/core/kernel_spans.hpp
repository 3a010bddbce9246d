#pragma once
// The timeline's kernels (Results::timeline().kernels) from the records of a session: every
// record the tool timed in process (start and end known), in launch order.

#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/timeline.hpp"

namespace kscope {

[[nodiscard]] KernelSpans kernel_spans(const std::vector<KernelRecord>& records);

}  // namespace kscope
