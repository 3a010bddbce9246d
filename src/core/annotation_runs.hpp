#pragma once
// The kernels of every annotation in every measured run, grouped from the tool's records and
// the session's run logs: what extraction and the kernel-count check read.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/pointer_range.hpp"

namespace kscope {

/// One annotation over the measured runs in which it was entered or launched a kernel.
struct AnnotationRuns {
  /// One of its runs.
  struct Run {
    RunId id;
    bool failed = false;     ///< the annotation failed in this run
    std::size_t first = 0;   ///< its kernels: all_kernels[first, first + count), in launch order
    std::size_t count = 0;
  };

  std::string name;
  std::vector<Run> runs;     ///< every run, in (config, run) order
  /// The runs the kernel-count check goes through: the ids of `runs`, or those a caller kept
  /// (in the same order).
  std::vector<RunId> order;
  std::vector<const KernelRecord*> all_kernels;  ///< every run's kernels, run after run

  /// The kernels of `run` (one of `runs`), in launch order.
  [[nodiscard]] PointerRange<KernelRecord> kernels(const Run& run) const {
    return {all_kernels.data() + run.first, run.count};
  }
};

/// Groups `records` (kernels on the ignore list dropped, warm-up runs skipped) by annotation
/// and run. Annotations come in order of first appearance over the runs in (config, run)
/// order. The records point into `records`, which must outlive the result.
[[nodiscard]] std::vector<AnnotationRuns> group_annotation_runs(
    const std::vector<KernelRecord>& records, const std::vector<RunLog>& runs,
    const std::vector<std::string>& ignore_kernel_list);

}  // namespace kscope
