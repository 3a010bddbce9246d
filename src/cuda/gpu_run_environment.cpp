#include "cuda/gpu_run_environment.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"

namespace kscope::cuda {

GpuRunEnvironment::GpuRunEnvironment(int device, const Options& options) {
  if (options.cache_control == "all") flusher_ = std::make_unique<CacheFlusher>(device);
}

void GpuRunEnvironment::add_hooks(std::function<void(const RunId&)> before,
                                  std::function<void(const RunId&)> after) {
  if (before) before_.push_back(std::move(before));
  if (after) after_.push_back(std::move(after));
}

void GpuRunEnvironment::before_run(const RunId& run) {
  for (auto& h : before_) h(run);
}

void GpuRunEnvironment::before_region(const std::string& annotation) {
  (void)annotation;
  if (flusher_) flusher_->flush();
}

void GpuRunEnvironment::synchronize() { KSCOPE_CUDA_CHECK(cudaDeviceSynchronize()); }

void GpuRunEnvironment::after_run(const RunId& run) {
  for (auto& h : after_) h(run);
}

}  // namespace kscope::cuda
