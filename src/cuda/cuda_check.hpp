#pragma once
// Checks CUDA runtime calls: a failure throws kscope::Error naming the call, the error code and
// the runtime's description.

#include <cuda_runtime_api.h>

#include <string>

#include "kscope/errors.hpp"

namespace kscope::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace kscope::cuda

#define KSCOPE_CUDA_CHECK(call)                                                    \
  do {                                                                             \
    const cudaError_t kscope_cuda_status_ = (call);                                \
    if (kscope_cuda_status_ != cudaSuccess) {                                      \
      ::kscope::cuda::throw_cuda_error(kscope_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                              \
  } while (0)
