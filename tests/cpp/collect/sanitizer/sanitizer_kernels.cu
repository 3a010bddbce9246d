#include <cuda_runtime.h>

#include <stdexcept>

#include "sanitizer_kernels.hpp"

namespace kscope::testing {

__global__ void write_indices(int* p, int bound) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < bound) p[i] = i;  // bound = n + extra
}

__global__ void shared_race(int* out) {
  __shared__ int slots[64];
  slots[threadIdx.x % 64] = threadIdx.x;  // many threads, one slot, no __syncthreads()
  out[threadIdx.x] = slots[(threadIdx.x + 1) % 64];
}

__global__ void read_input(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x] + 1; }

__global__ void add(const int* a, const int* b, int* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void double_pairs(float* x, int pairs) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < pairs) {
    x[2 * t] *= 2.0f;
    x[2 * t + 1] *= 2.0f;  // past the end for the last pair of an odd n
  }
}

namespace {
int blocks(int n) { return (n + 255) / 256; }
}  // namespace

void launch_write_indices(int* p, int n, int extra) {
  write_indices<<<blocks(n + extra), 256>>>(p, n + extra);
}

void launch_shared_race(int* out) { shared_race<<<1, 256>>>(out); }

void launch_read_input(const int* in, int* out) { read_input<<<1, 64>>>(in, out); }

void launch_add(const int* a, const int* b, int* c, int n) { add<<<blocks(n), 256>>>(a, b, c, n); }

void launch_double_pairs(float* x, int n) {
  const int pairs = (n + 1) / 2;
  double_pairs<<<blocks(pairs), 256>>>(x, pairs);
}

int* device_ints(std::size_t n) {
  void* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(int)) != cudaSuccess) throw std::runtime_error("cudaMalloc failed");
  return static_cast<int*>(p);
}

float* device_floats_zeroed(std::size_t n) {
  void* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    throw std::runtime_error("cudaMalloc failed");
  (void)cudaMemset(p, 0, n * sizeof(float));
  return static_cast<float*>(p);
}

void zero_ints(int* p, std::size_t n) { (void)cudaMemset(p, 0, n * sizeof(int)); }

void free_device_memory(void* p) { (void)cudaFree(p); }

void synchronize_quietly() { (void)cudaDeviceSynchronize(); }

}  // namespace kscope::testing
