#include "counter_kernels.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace kscope::testing {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void read_kernel(const float4* x, std::size_t n4, float* sink) {
  float acc = 0.f;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float4 v = x[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == -1234.5f) sink[0] = acc;
}

__global__ void ffma_kernel(float* out, int iters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i * 1e-6f, y = 1.0001f;
  for (int k = 0; k < iters; ++k) {
    x = fmaf(x, y, 0.5f);
    y = fmaf(y, 0.9999f, 1e-7f);
  }
  out[i] = x + y;
}

__global__ void increment_kernel(int* p, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) p[i] += 1;
}

__global__ void spin_kernel(long long ns) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (static_cast<long long>(now - start) < ns);
}

int read_blocks() {
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  return sms * 8;
}

}  // namespace

void launch_read(const void* x, std::size_t bytes, float* sink) {
  read_kernel<<<read_blocks(), 256>>>(static_cast<const float4*>(x), bytes / 16, sink);
  check(cudaGetLastError(), "read_kernel");
}

void launch_ffma(float* out, int blocks, int threads, int iters) {
  ffma_kernel<<<blocks, threads>>>(out, iters);
  check(cudaGetLastError(), "ffma_kernel");
}

void launch_increment(int* p, std::size_t n) {
  increment_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(p, n);
  check(cudaGetLastError(), "increment_kernel");
}

void launch_spin_ns(long long ns) {
  spin_kernel<<<1, 1>>>(ns);
  check(cudaGetLastError(), "spin_kernel");
}

ReadGraph::ReadGraph(const void* x, std::size_t bytes, float* sink) {
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  stream_ = s;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  read_kernel<<<read_blocks(), 256, 0, s>>>(static_cast<const float4*>(x), bytes / 16, sink);
  check(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
  graph_ = graph;
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  exec_ = exec;
}

ReadGraph::~ReadGraph() {
  cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
  cudaGraphDestroy(static_cast<cudaGraph_t>(graph_));
  cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

void ReadGraph::launch() {
  const auto s = static_cast<cudaStream_t>(stream_);
  check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec_), s), "cudaGraphLaunch");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
}

void* device_zeroed(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), "cudaMalloc");
  check(cudaMemset(p, 0, bytes), "cudaMemset");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return p;
}

void device_free(void* p) { cudaFree(p); }

void device_memset(void* p, int value, std::size_t bytes) {
  check(cudaMemset(p, value, bytes), "cudaMemset");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void device_copy(void* dst, const void* src, std::size_t bytes) {
  check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
}

void device_synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

int read_int(const int* p, std::size_t index) {
  int v = 0;
  check(cudaMemcpy(&v, p + index, sizeof v, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return v;
}

std::size_t l2_bytes() {
  int bytes = 0;
  check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, 0), "cudaDeviceGetAttribute");
  return static_cast<std::size_t>(bytes);
}

}  // namespace kscope::testing
