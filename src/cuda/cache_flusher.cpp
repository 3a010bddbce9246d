#include "cuda/cache_flusher.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/device.hpp"
#include "cuda/l2_flush_kernel.hpp"

namespace kscope::cuda {

CacheFlusher::CacheFlusher(int device) {
  bytes_ = static_cast<std::size_t>(2 * l2_cache_bytes(device)) / 128 * 128;
  if (bytes_ == 0) return;
  int sms = 0;
  KSCOPE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  blocks_ = 4 * (sms > 0 ? sms : 1);
  KSCOPE_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
}

CacheFlusher::~CacheFlusher() {
  if (buffer_) (void)cudaFree(buffer_);
}

void CacheFlusher::flush() {
  if (!buffer_) return;
  // Writing 2 x L2 evicts every other line (dirty ones are written back now, not during the
  // measured kernel); discarding the scratch lines then leaves the L2 empty and clean.
  KSCOPE_CUDA_CHECK(cudaMemsetAsync(buffer_, ++value_, bytes_, nullptr));
  KSCOPE_CUDA_CHECK(launch_l2_discard(buffer_, bytes_, blocks_, nullptr));
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace kscope::cuda
