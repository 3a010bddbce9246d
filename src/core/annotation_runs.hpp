#pragma once
// The kernels of every annotation in every measured run, grouped from the tool's records and
// the session's run logs: what extraction and the kernel-count check read.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope {

/// One annotation over the measured runs in which it was entered or launched a kernel.
struct AnnotationRuns {
  std::string name;
  std::vector<RunId> order;                                   ///< its runs, in (config, run) order
  std::map<RunId, std::vector<const KernelRecord*>> kernels;  ///< per run, in launch order
  std::set<RunId> failed;                                     ///< runs whose annotation failed
};

/// Groups `records` (kernels on the ignore list dropped, warm-up runs skipped) by annotation
/// and run. Annotations come in order of first appearance over the runs in (config, run)
/// order. The records point into `records`, which must outlive the result.
[[nodiscard]] std::vector<AnnotationRuns> group_annotation_runs(
    const std::vector<KernelRecord>& records, const std::vector<RunLog>& runs,
    const std::vector<std::string>& ignore_kernel_list);

}  // namespace kscope
