#include "cuda/cache_flusher.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/device.hpp"
#include "cuda/l2_flush_kernel.hpp"

namespace kscope::cuda {

CacheFlusher::CacheFlusher(int device) : device_(device) {
  bytes_ = static_cast<std::size_t>(2 * l2_cache_bytes(device)) / 128 * 128;
  if (bytes_ == 0) return;
  int sms = 0;
  KSCOPE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  blocks_ = 4 * (sms > 0 ? sms : 1);
  KSCOPE_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  flush();
}

CacheFlusher::~CacheFlusher() {
  if (buffer_) (void)cudaFree(buffer_);
}

namespace {
// Makes `device` current for its lifetime and gives the caller's device back afterwards.
class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    KSCOPE_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) KSCOPE_CUDA_CHECK(cudaSetDevice(device));
    switched_ = previous_ != device;
  }
  ~CurrentDevice() {
    if (switched_) (void)cudaSetDevice(previous_);
  }
  CurrentDevice(const CurrentDevice&) = delete;             // restores on destruction
  CurrentDevice& operator=(const CurrentDevice&) = delete;  // restores on destruction

 private:
  int previous_ = 0;
  bool switched_ = false;
};
}  // namespace

void CacheFlusher::flush(bool wait) {
  if (!buffer_) return;
  const CurrentDevice on(device_);
  // The GPU work launched before the region (its inputs, written right before it) finishes
  // first, so that the flush evicts what it left in the L2.
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
  // Writing 2 x L2 evicts every other line (dirty ones are written back now, not during the
  // measured kernel); discarding the scratch lines then leaves the L2 empty and clean.
  KSCOPE_CUDA_CHECK(cudaMemsetAsync(buffer_, ++value_, bytes_, nullptr));
  KSCOPE_CUDA_CHECK(launch_l2_discard(buffer_, bytes_, blocks_, nullptr));
  if (wait) KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

void CacheFlusher::flush_before_kernel(void* stream) {
  if (!buffer_) return;
  int current = -1;
  KSCOPE_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device_) return;
  const auto s = static_cast<cudaStream_t>(stream);
  // A launch being captured into a graph (cuda_graph's capturing run) runs later, as one graph
  // launch flushed before it: synchronising now would invalidate the capture, and the flush would
  // be captured into the graph. A stream whose state cannot be read is left alone likewise.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) return;
  // The region's earlier kernels (on this stream or another) end before the flush starts, so it
  // evicts what they left and cannot slow them down.
  KSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
  KSCOPE_CUDA_CHECK(cudaMemsetAsync(buffer_, ++value_, bytes_, s));
  KSCOPE_CUDA_CHECK(launch_l2_discard(buffer_, bytes_, blocks_, s));
}

}  // namespace kscope::cuda
