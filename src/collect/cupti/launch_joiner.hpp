#pragma once
// Joins what the launch callbacks saw (correlation id -> annotation and run at launch time) with
// the kernel activity records (correlation id -> name and GPU start/end). Pure and thread-safe:
// the CUPTI wrappers feed it, and unit tests feed it synthetic records through the same path.

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <functional>

#include "collect/cupti/launch_metrics.hpp"
#include "core/kernel_record.hpp"

namespace kscope::cupti {

/// The launch of one kernel (or graph) inside an annotation.
struct LaunchInfo {
  std::string annotation;
  RunId run;
  std::uint64_t sequence = 0;
};

/// One kernel activity record, reduced to what kscope uses.
struct KernelActivity {
  std::uint32_t correlation_id = 0;
  std::string name;        ///< mangled, as CUPTI reports it
  std::uint64_t start = 0; ///< ns
  std::uint64_t end = 0;   ///< ns
  int device = 0;
  std::uint32_t stream = 0;  ///< CUDA stream id
  /// Added to start and end, the GPU times on the host steady clock (Timeline, ns).
  std::int64_t host_offset_ns = 0;
  KernelLaunch launch;     ///< grid, block, registers, shared memory (launch__ metrics)
};

class LaunchJoiner {
 public:
  /// Called from launch callbacks (any thread).
  void add_launch(std::uint32_t correlation_id, LaunchInfo info);
  /// Called with each batch of activity records (after a flush). Returns the records of kernels
  /// launched inside annotations; kernels whose launch was not recorded are dropped (launched
  /// outside any annotation or session). A kernel with end < start is an error.
  /// `decorate`, when given, completes each record from its activity (launch metrics). The
  /// records take the kernels' names.
  [[nodiscard]] std::vector<KernelRecord> join(
      std::vector<KernelActivity> kernels,
      const std::function<void(const KernelActivity&, KernelRecord&)>& decorate = {});
  /// Forgets everything (session start).
  void clear();
  [[nodiscard]] std::size_t pending_launches() const;
  /// kscope's own flush kernels (cuda::kL2DiscardKernel) among the records joined since clear():
  /// dropped, never a region's.
  [[nodiscard]] std::size_t flush_kernels() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::uint32_t, LaunchInfo> launches_;
  // Demangled base name by mangled name: a sweep launches the same few kernels thousands of
  // times, and demangling a templated library kernel's name costs up to tens of microseconds.
  std::unordered_map<std::string, std::string> base_names_;
  std::size_t flush_kernels_ = 0;
};

}  // namespace kscope::cupti
