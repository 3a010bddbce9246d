#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_kernels.hpp"

namespace kscope::testing {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void vadd_kernel(const float* a, const float* b, float* c, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

__global__ void scale_kernel(float* y, const float* x, float s, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = s * x[i];
  }
}

__global__ void read_sum_kernel(const float* x, std::size_t n, float* out) {
  float acc = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    acc += x[i];
  }
  if (acc == 12345.678f) *out = acc;  // keeps the loads, almost never writes
}

__global__ void spin_kernel(long long ns) {
  long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  long long now = start;
  while (now - start < ns) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}

__global__ void empty_kernel() {}

__global__ void illegal_write_kernel(float* p) { p[threadIdx.x] = 1.0f; }

__global__ void fill_kernel(float* x, float v, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = v;
}

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 132 * 32));
}

}  // namespace

void launch_vadd(const float* a, const float* b, float* c, std::size_t n) {
  vadd_kernel<<<blocks_for(n), 256>>>(a, b, c, n);
  check(cudaGetLastError(), "vadd launch");
}
void launch_scale(float* y, const float* x, float s, std::size_t n) {
  scale_kernel<<<blocks_for(n), 256>>>(y, x, s, n);
  check(cudaGetLastError(), "scale launch");
}
void launch_read_sum(const float* x, std::size_t n, float* out) {
  read_sum_kernel<<<blocks_for(n), 256>>>(x, n, out);
  check(cudaGetLastError(), "read_sum launch");
}
void launch_spin(long long ns) {
  spin_kernel<<<1, 32>>>(ns);
  check(cudaGetLastError(), "spin launch");
}
void launch_spin_on(long long ns, CUstream_st* stream) {
  spin_kernel<<<1, 32, 0, stream>>>(ns);
  check(cudaGetLastError(), "spin launch");
}
void launch_empty_on(CUstream_st* stream) {
  empty_kernel<<<1, 32, 0, stream>>>();
  check(cudaGetLastError(), "empty launch");
}
CUstream_st* new_stream() {
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream creation");
  return s;
}
void destroy_stream(CUstream_st* stream) { (void)cudaStreamDestroy(stream); }
int launch_with_too_many_threads() {
  empty_kernel<<<1, 4096>>>();  // more threads per block than any GPU has: not launched
  return static_cast<int>(cudaGetLastError());
}
int fail_a_malloc_and_leave_the_error_pending() {
  void* p = nullptr;
  return static_cast<int>(cudaMalloc(&p, std::size_t{1} << 42));
}
int take_last_error() { return static_cast<int>(cudaGetLastError()); }
void launch_illegal_write() {
  // An address no allocation can have: the kernel faults and the context is lost.
  illegal_write_kernel<<<1, 32>>>(reinterpret_cast<float*>(0x10));
  check(cudaGetLastError(), "illegal-write launch");
}
void launch_empty() {
  empty_kernel<<<1, 32>>>();
  check(cudaGetLastError(), "empty launch");
}
void launch_fill(float* x, float value, std::size_t n) {
  fill_kernel<<<blocks_for(n), 256>>>(x, value, n);
  check(cudaGetLastError(), "fill launch");
}

double measure_copy_rate(std::size_t bytes) {
  void* src = nullptr;
  void* dst = nullptr;
  check(cudaMalloc(&src, bytes), "cudaMalloc");
  check(cudaMalloc(&dst, bytes), "cudaMalloc");
  check(cudaMemset(src, 1, bytes), "cudaMemset");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> ms;
  for (int i = 0; i < 12; ++i) {
    check(cudaEventRecord(start), "record");
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "copy");
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    if (i >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * static_cast<double>(bytes) / (ms[ms.size() / 2] * 1e-3);
}

float* device_floats(std::size_t n) {
  void* p = nullptr;
  if (const cudaError_t e = cudaMalloc(&p, n * sizeof(float)); e != cudaSuccess) {
    // The exception reports the failure; like torch's allocator, clear what cudaMalloc left
    // pending, or this thread's next cudaGetLastError (a later launch's check) returns it again.
    (void)cudaGetLastError();
    check(e, "cudaMalloc");
  }
  check(cudaMemset(p, 0, n * sizeof(float)), "cudaMemset");
  return static_cast<float*>(p);
}
void free_device(void* p) { cudaFree(p); }
void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace kscope::testing
