#pragma once
// The real RunEnvironment: the cache flush at the entry of every annotated region (cache_control
// "all") and device synchronisation after each run. Extra work before/after each run (thermal
// guard, telemetry) is added with add_hooks.

#include <functional>
#include <memory>
#include <vector>

#include "core/run_environment.hpp"
#include "cuda/cache_flusher.hpp"
#include "kscope/options.hpp"

namespace kscope::cuda {

class GpuRunEnvironment : public RunEnvironment {
 public:
  GpuRunEnvironment(int device, const Options& options);

  /// Hooks called before / after (synchronisation of) every run.
  void add_hooks(std::function<void(const RunId&)> before, std::function<void(const RunId&)> after);

  void before_run(const RunId& run) override;
  /// cache_control "all": waits for the GPU work launched before the region, then flushes the
  /// L2 (CacheFlusher), so that every region's first kernel starts cold, as under ncu.
  void before_region(const std::string& annotation) override;
  void synchronize() override;
  void after_run(const RunId& run) override;

 private:
  std::unique_ptr<CacheFlusher> flusher_;
  std::vector<std::function<void(const RunId&)>> before_;
  std::vector<std::function<void(const RunId&)>> after_;
};

}  // namespace kscope::cuda
