// Experiment (not a test): would a smaller L2 flush leave a kernel as cold as kscope's flush of
// 2 x L2 does? cache_control "all" writes a scratch buffer of twice the L2 and discards its lines
// (cuda/cache_flusher.hpp), ~51 us per call on an H200: most of the host time per call of a
// short kernel under kscope.testing.do_bench. This probe flushes with m x L2 (the same write and
// discard, the engine's discard kernel) for several m and times the kernel after each flush.
// Built with the bench targets (kscope_probe_l2_flush); run on the GPU:
//   build/bench/kscope_probe_l2_flush [repeats]
// Kernels, each run back to back before every flush so that its lines are the L2's most used
// ones (the case where a read-only flush failed, l2_flush_kernel.cu): a read of 16 MiB, a vector
// add of 4M floats (48 MiB, inside the H200's 60 MiB L2) and one of 16M floats (192 MiB).
// Prints per m: the flush's GPU time and each kernel's median time after it (CUDA events around
// the kernel alone, the device idle before it), and that time / the one after 2 x L2. A smaller
// flush leaves the kernel as cold when its ratio is 1 within the spread of repeats; the no-flush
// line shows what a warm kernel reads.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "cuda/l2_flush_kernel.hpp"

namespace {

#define CHECK(x)                                                                   \
  do {                                                                             \
    const cudaError_t e_ = (x);                                                    \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));         \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

__global__ void read_sum(const float* x, long n, float* out) {
  float s = 0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    s += x[i];
  }
  if (s == 12345.0f) *out = s;  // keeps the loads
}

__global__ void vadd(const float* a, const float* b, float* c, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

struct Kernel {
  std::string name;
  std::function<void()> launch;
};

float elapsed_ms(const std::function<void()>& work) {
  cudaEvent_t start = nullptr, end = nullptr;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&end));
  CHECK(cudaEventRecord(start));
  work();
  CHECK(cudaEventRecord(end));
  CHECK(cudaEventSynchronize(end));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, end));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(end));
  return ms;
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 30;
  int device = 0, l2 = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t most = static_cast<std::size_t>(2) * l2 / 128 * 128;
  void* scratch = nullptr;
  CHECK(cudaMalloc(&scratch, most));
  const long big = 16L << 20, four_m = 4L << 20;  // floats
  float *a = nullptr, *b = nullptr, *c = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&a, big * sizeof(float)));
  CHECK(cudaMalloc(&b, big * sizeof(float)));
  CHECK(cudaMalloc(&c, big * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  CHECK(cudaMemset(a, 0, big * sizeof(float)));
  CHECK(cudaMemset(b, 0, big * sizeof(float)));
  const int blocks = 4 * sms;
  const std::vector<Kernel> kernels = {
      {"read 16 MiB", [&] { read_sum<<<blocks, 256>>>(a, four_m, out); }},
      {"vadd 4M (48 MiB)", [&] { vadd<<<blocks, 256>>>(a, b, c, four_m); }},
      {"vadd 16M (192 MiB)", [&] { vadd<<<blocks, 256>>>(a, b, c, big); }},
  };
  unsigned char value = 0;
  // m x L2 written, then discarded, as CacheFlusher::flush does with m = 2.
  const auto flush = [&](double m) {
    const std::size_t bytes = static_cast<std::size_t>(m * l2) / 128 * 128;
    CHECK(cudaMemsetAsync(scratch, ++value, bytes, nullptr));
    CHECK(kscope::cuda::launch_l2_discard(scratch, bytes, blocks, nullptr));
  };
  std::printf("L2 %d MiB, %d SMs, %d repeats; median us (ratio to the 2 x L2 flush)\n", l2 >> 20,
              sms, repeats);
  const std::vector<double> multiples = {2.0, 1.5, 1.25, 1.0, 0.75, 0.5, 0.0};
  std::vector<float> baseline(kernels.size(), 0);
  for (const double m : multiples) {
    std::vector<float> flush_ms;
    std::vector<std::vector<float>> kernel_ms(kernels.size());
    for (int r = 0; r < repeats; ++r) {
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        for (int warm = 0; warm < 3; ++warm) kernels[k].launch();
        CHECK(cudaDeviceSynchronize());
        if (m > 0) flush_ms.push_back(elapsed_ms([&] { flush(m); }));
        CHECK(cudaDeviceSynchronize());
        kernel_ms[k].push_back(elapsed_ms(kernels[k].launch));
      }
    }
    if (m > 0) {
      std::printf("flush %.2f x L2: flush %.1f us", m, 1e3 * median(flush_ms));
    } else {
      std::printf("no flush:            ");
    }
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const float us = 1e3f * median(kernel_ms[k]);
      if (m == 2.0) baseline[k] = us;
      std::printf("; %s %.2f us (%.3f)", kernels[k].name.c_str(), us, us / baseline[k]);
    }
    std::printf("\n");
  }
  CHECK(cudaFree(scratch));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(out));
  return 0;
}
