#pragma once
// Launcher of the L2-flushing read kernel (compiled by nvcc; callable from plain C++).

#include <cuda_runtime_api.h>

#include <cstddef>

namespace kscope::cuda {

/// Reads `bytes` (a multiple of 16) of `buffer` on `stream` with `blocks` blocks of 256 threads.
/// `sink` is a device int the kernel never writes in practice. Returns the launch status.
cudaError_t launch_l2_read(const void* buffer, std::size_t bytes, int* sink, int blocks,
                           cudaStream_t stream);

}  // namespace kscope::cuda
