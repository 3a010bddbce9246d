#pragma once
// The real RunEnvironment: the cache flush at the entry of every annotated region (cache_control
// "all" and "region") and before every later kernel of a region ("all"), and device synchronisation after each run, and recovery after a failed one.

#include <memory>

#include "core/run_environment.hpp"
#include "cuda/cache_flusher.hpp"
#include "kscope/options.hpp"

namespace kscope::cuda {

class GpuRunEnvironment : public RunEnvironment {
 public:
  /// With cache_control "all" or "region", a flusher of its own (2 x L2 on `device`, for the session).
  GpuRunEnvironment(int device, const Options& options);
  /// Flushes with `flusher`, which outlives it (kscope::time's resident one); null: no flush.
  /// `options`: how (duration_source).
  GpuRunEnvironment(CacheFlusher* flusher, const Options& options);

  /// cache_control "all" and "region": waits for the GPU work launched before the region, then flushes the
  /// L2 (CacheFlusher), so that every region's first kernel starts cold, as under ncu, and waits
  /// for the flush. With duration_source "events" it does not wait: the region's start event is
  /// queued behind the flush and the host launches the region's kernels while the flush runs, as
  /// Triton's do_bench queues its events behind its cache clearing.
  void before_region(const std::string& annotation) override;
  /// cache_control "all": CacheFlusher::flush_before_kernel on `stream` (the tool calls it only
  /// for "all", and not with duration_source "events" or replay_mode "range").
  void before_kernel(void* stream) override;
  void synchronize() override;
  void recover() override;

 private:
  std::unique_ptr<CacheFlusher> owned_;
  CacheFlusher* flusher_ = nullptr;
  bool wait_for_flush_ = true;
};

}  // namespace kscope::cuda
