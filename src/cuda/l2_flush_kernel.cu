// The device half of cache_control "all" (see cache_flusher.hpp). After the scratch buffer has
// been written (which evicts everything else from the L2, writing back dirty lines), this kernel
// discards the scratch buffer's lines from the L2 without writing them back (PTX
// discard.global.L2, sm_80+), so the measured kernel starts with an empty, clean L2 -- what ncu's
// flush-and-invalidate gives. Measured on an H200: a write-only flush left dirty lines that made a
// 16M-element vector add 8.7 % slower than ncu's measurement of it; a read-only flush did not
// evict lines the benchmark reads in every run (the L2 keeps frequently used lines over data
// read once).

#include "cuda/l2_flush_kernel.hpp"

namespace kscope::cuda {
namespace {

constexpr std::size_t kLine = 128;  // discard.global.L2 works on 128-byte lines

}  // namespace

// extern "C": CUPTI's kernel records name it kL2DiscardKernel exactly (l2_flush_kernel.hpp).
extern "C" __global__ void kscope_l2_discard_lines(char* data, std::size_t lines) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < lines;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(data + i * kLine) : "memory");
  }
#else
  (void)data;
  (void)lines;
#endif
}

// cudaLaunchKernel returns this launch's own status. `<<<...>>>` followed by cudaGetLastError()
// would also return an error the benchmark left pending (a raw cudaMalloc's out of memory under
// on_config_error "raise", which nobody cleared) and report it as the flush's own, failing the
// next sweep of the process.
cudaError_t launch_l2_discard(void* buffer, std::size_t bytes, int blocks, cudaStream_t stream) {
  char* data = static_cast<char*>(buffer);
  std::size_t lines = bytes / kLine;
  void* args[] = {&data, &lines};
  return cudaLaunchKernel(reinterpret_cast<const void*>(&kscope_l2_discard_lines), dim3(blocks), dim3(256),
                          args, 0, stream);
}

}  // namespace kscope::cuda
