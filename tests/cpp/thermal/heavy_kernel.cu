#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "heavy_kernel.hpp"

namespace kscope::testing {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void fma_burn_kernel(long long iterations, float* sink) {
  // Eight independent chains keep the FMA pipes full; the result is written only if it has an
  // impossible value, so the compiler cannot drop the loop.
  float a[8];
  for (int k = 0; k < 8; ++k) a[k] = threadIdx.x * 1e-3f + k;
  for (long long i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) a[k] = fmaf(a[k], 0.999999f, 1e-7f);
  }
  float s = 0;
  for (int k = 0; k < 8; ++k) s += a[k];
  if (s == -1.0f) *sink = s;
}

int blocks() {
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
  return sms * 8;
}

}  // namespace

void launch_fma_burn(long long iterations, float* sink) {
  fma_burn_kernel<<<blocks(), 256>>>(iterations, sink);
  check(cudaGetLastError(), "fma_burn launch");
}

long long fma_iterations_for_ms(double ms, float* sink) {
  const long long probe = 1 << 16;
  launch_fma_burn(probe, sink);  // warm-up
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  check(cudaEventRecord(start), "cudaEventRecord");
  launch_fma_burn(probe, sink);
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float elapsed = 0;
  check(cudaEventElapsedTime(&elapsed, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return static_cast<long long>(probe * ms / (elapsed > 0 ? elapsed : 1e-3f)) + 1;
}

}  // namespace kscope::testing
