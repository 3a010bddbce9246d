#include "cuda/cache_flusher.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/device.hpp"

namespace kscope::cuda {

CacheFlusher::CacheFlusher(int device) {
  bytes_ = static_cast<std::size_t>(2 * l2_cache_bytes(device));
  if (bytes_ == 0) return;
  KSCOPE_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
}

CacheFlusher::~CacheFlusher() {
  if (buffer_) (void)cudaFree(buffer_);
}

void CacheFlusher::flush() {
  if (!buffer_) return;
  // A different byte each time: every line is really written.
  KSCOPE_CUDA_CHECK(cudaMemsetAsync(buffer_, ++value_, bytes_, nullptr));
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace kscope::cuda
