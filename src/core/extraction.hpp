#pragma once
// Extraction: per-kernel records -> one record per (annotation, config, run). Applies the ignore
// list, checks the kernel count of each annotation, combines several kernels when asked, and
// turns failed runs into NaN, as nsight-python does. Pure functions over plain data.

#include <string>
#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/config.hpp"
#include "kscope/options.hpp"

namespace kscope {

/// One value set per (annotation, config, run).
struct ExtractedRecord {
  std::string annotation;
  std::string kernel;                      ///< "a|b" when combined
  RunId run;
  std::vector<double> values;              ///< in `metrics` order; NaN for a failed run
  std::vector<std::optional<std::string>> units;
  bool failed = false;
};

struct ExtractionSettings {
  std::vector<std::string> metrics;            ///< requested metrics, in order
  std::vector<std::string> ignore_kernel_list;
  CombineFn combine;                           ///< may be empty
  std::vector<std::string> config_labels{};    ///< config i's values, for error messages
};

/// The labels of `configs` ("n=1024, dtype=f32") by Config::index(), for
/// ExtractionSettings::config_labels.
[[nodiscard]] std::vector<std::string> config_labels(const std::vector<Config>& configs);

/// Throws ExtractionError with the reference's texts, in its order: "No kernels were profiled
/// ...", then the kernel-count rules of core/kernel_count_check.hpp ("Expect same number of
/// kernels per run ...", "More than one (total=N) kernel ...").
/// Output order: annotations by first appearance, then (config, run).
[[nodiscard]] std::vector<ExtractedRecord> extract(const std::vector<KernelRecord>& records,
                                                   const std::vector<RunLog>& runs,
                                                   const ExtractionSettings& settings);

}  // namespace kscope
