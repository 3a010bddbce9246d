#include "cuda/gpu_run_environment.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"

namespace kscope::cuda {

GpuRunEnvironment::GpuRunEnvironment(int device, const Options& options)
    : GpuRunEnvironment(nullptr, options) {
  if (options.cache_control != "none") owned_ = std::make_unique<CacheFlusher>(device);
  flusher_ = owned_.get();
}

GpuRunEnvironment::GpuRunEnvironment(CacheFlusher* flusher, const Options& options)
    : flusher_(flusher), wait_for_flush_(options.duration_source != "events") {}

void GpuRunEnvironment::before_region(const std::string& annotation) {
  (void)annotation;
  if (flusher_) flusher_->flush(wait_for_flush_);
}

void GpuRunEnvironment::before_kernel(void* stream) {
  if (flusher_) flusher_->flush_before_kernel(stream);
}

void GpuRunEnvironment::synchronize() { KSCOPE_CUDA_CHECK(cudaDeviceSynchronize()); }

void GpuRunEnvironment::recover() {
  // A launch error (an invalid configuration) is reported once and then cleared; a sticky error
  // (an illegal address) stays, and every later call returns it again.
  (void)cudaDeviceSynchronize();
  (void)cudaGetLastError();
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace kscope::cuda
