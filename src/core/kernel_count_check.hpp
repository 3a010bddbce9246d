#pragma once
// nsight-python's kernel-count rules, checked run by run so that a sweep stops at the config
// that breaks them (the Session feeds every batch of finished runs) and again by extraction
// over a whole result (journals, the re-executing tools). In nsight-python's order:
//
// 1. "Expect same number of kernels per run ...": every measured run of an annotation launches
//    the same number of kernels: over the whole sweep, or, with combine_kernel_metrics, within
//    each config (a library may pick another algorithm at another size, e.g. a split-K GEMM).
// 2. "More than one (total=N) kernel is launched within the <a> annotation ...": without
//    combine_kernel_metrics an annotation launches one kernel per run.
//
// Both texts name the configs (index and values) and runs involved and their kernels. Runs
// whose annotation failed (ignore_failures) are not checked.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/annotation_runs.hpp"

namespace kscope {

class KernelCountCheck {
 public:
  /// `config_labels[i]` names config i in the messages ("n=1024, dtype=f32"); may be short.
  KernelCountCheck(bool combine, std::vector<std::string> config_labels);

  /// Checks every run of annotation `a` not checked before, in (config, run) order; throws
  /// ExtractionError at the first run that breaks a rule.
  void check(const AnnotationRuns& a);

 private:
  struct Count {
    std::size_t kernels = 0;
    std::size_t runs = 0;
    RunId example;
    std::vector<std::string> example_kernels;
  };
  struct Seen {
    std::vector<Count> counts;  ///< in order of first appearance
    std::size_t runs = 0;
    std::size_t kernels = 0;
  };

  void check_run(const std::string& annotation, const RunId& run,
                 PointerRange<KernelRecord> kernels, Seen& seen);
  [[nodiscard]] std::string config_text(std::size_t config) const;
  [[nodiscard]] std::string run_text(const RunId& run) const;

  bool combine_;
  std::vector<std::string> labels_;
  std::map<std::pair<std::string, std::size_t>, Seen> seen_;  ///< (annotation, config or 0)
  std::map<std::string, std::vector<RunId>> checked_;         ///< sorted runs per annotation
};

}  // namespace kscope
