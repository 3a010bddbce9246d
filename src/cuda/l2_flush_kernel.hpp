#pragma once
// Launcher of the L2-discarding kernel (compiled by nvcc; callable from plain C++).

#include <cuda_runtime_api.h>

#include <cstddef>

namespace kscope::cuda {

/// The discard kernel's name in CUPTI's kernel records. A flush the launch callback makes between
/// two kernels of a region (cache_control "all") is launched inside the callback of the region's
/// next launch, and its kernel record carries that launch's correlation id: the timing path drops
/// records of this name, so the flush is never a kernel of the region.
inline constexpr const char* kL2DiscardKernel = "kscope_l2_discard_lines";

/// Discards the L2 lines of `buffer` (128-byte aligned, `bytes` a multiple of 128) without
/// writing them back, on `stream`, with `blocks` blocks of 256 threads. A no-op on GPUs older
/// than compute capability 8.0. Returns this launch's status, never an error the caller left
/// pending (cudaGetLastError's).
cudaError_t launch_l2_discard(void* buffer, std::size_t bytes, int blocks, cudaStream_t stream);

}  // namespace kscope::cuda
