#include "cuda/cache_flusher.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/device.hpp"
#include "cuda/l2_read_kernel.hpp"

namespace kscope::cuda {

CacheFlusher::CacheFlusher(int device) {
  bytes_ = static_cast<std::size_t>(2 * l2_cache_bytes(device)) / 16 * 16;
  if (bytes_ == 0) return;
  int sms = 0;
  KSCOPE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  blocks_ = 4 * (sms > 0 ? sms : 1);
  KSCOPE_CUDA_CHECK(cudaMalloc(&buffer_, bytes_ + sizeof(int)));
  // Initialised once (compute-sanitizer's initcheck would flag reads of unwritten memory).
  KSCOPE_CUDA_CHECK(cudaMemset(buffer_, 0, bytes_ + sizeof(int)));
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

CacheFlusher::~CacheFlusher() {
  if (buffer_) (void)cudaFree(buffer_);
}

void CacheFlusher::flush() {
  if (!buffer_) return;
  auto* sink = reinterpret_cast<int*>(static_cast<char*>(buffer_) + bytes_);
  KSCOPE_CUDA_CHECK(launch_l2_read(buffer_, bytes_, sink, blocks_, nullptr));
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace kscope::cuda
