#pragma once
// Plain data that flows from the collectors into extraction: one record per measured kernel
// (or per range in range replay), already attributed to an annotation and a run.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kscope/info_value.hpp"

namespace kscope {

/// Identifies one execution of the benchmark callable.
struct RunId {
  std::size_t config = 0;
  std::size_t run = 0;
  bool warmup = false;  ///< warm-up runs are executed but never measured

  friend bool operator==(const RunId& a, const RunId& b) {
    return a.config == b.config && a.run == b.run && a.warmup == b.warmup;
  }
  friend bool operator<(const RunId& a, const RunId& b) {
    if (a.config != b.config) return a.config < b.config;
    if (a.warmup != b.warmup) return a.warmup;  // warm-up runs come first
    return a.run < b.run;
  }
};

/// One metric value of one kernel.
struct Measurement {
  std::string metric;
  double value = 0;
  std::optional<std::string> unit;
};

/// What a tool measured for one kernel launched inside an annotation.
struct KernelRecord {
  std::string annotation;
  std::string kernel;          ///< demangled base name ("vadd"), or "range" in range replay
  std::string mangled;         ///< as the tool reported it (may equal `kernel`)
  RunId run;
  int device = 0;
  std::uint64_t sequence = 0;  ///< launch order within the session
  std::vector<Measurement> metrics;
  /// GPU start and end on the host steady clock (ns), and the stream, when the tool timed the
  /// kernel in process (cupti timing); nullopt otherwise.
  std::optional<std::int64_t> start_ns;
  std::optional<std::int64_t> end_ns;
  std::optional<std::uint32_t> stream;
};

/// What the ANNOTATION-scope info collectors returned at one entry of an annotation.
struct AnnotationInfo {
  std::string annotation;
  std::vector<InfoValue> values;  ///< one per Options::info_collectors; other scopes empty
};

/// What the session observed of one run, independent of the tool.
struct RunLog {
  RunId run;
  std::vector<std::string> entered;  ///< annotations entered, in order
  std::vector<std::string> failed;   ///< annotations whose run failed (values become NaN)
  /// Info collectors' values for this run, one per Options::info_collectors (empty without
  /// collectors): ONCE, CONFIG and RUN collectors' values; ANNOTATION collectors' slots empty.
  std::vector<InfoValue> info{};
  /// ANNOTATION collectors' values at each annotation entered, in entry order.
  std::vector<AnnotationInfo> annotation_info{};
};

}  // namespace kscope
