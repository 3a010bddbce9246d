// Experiment (not a test): what the CUPTI Checkpoint API does on this GPU, what it costs, and how
// CUPTI's two kernel activity kinds time short kernels against ncu. Build and run:
//   nvcc -O2 -std=c++17 -arch=sm_90 -I$CUDA/include bench/probes/checkpoint_probe.cu \
//        -L$CUDA/lib64 -lcupti -ldl -o /tmp/probe && /tmp/probe
//   ncu --clock-control none --metrics gpu__time_duration.sum --csv /tmp/probe ncu
// Prints: save/restore times per allocated size, whether restore brings memory back, whether
// save/restore launch kernels or memcpys that CUPTI sees, per-kernel durations of short kernels
// from CONCURRENT_KERNEL and KERNEL activity records, and the cost of one L2 flush.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_checkpoint.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace NV::Cupti::Checkpoint;
using Clock = std::chrono::steady_clock;

#define CK(x)                                                                       \
  do {                                                                              \
    auto e_ = (x);                                                                  \
    if (e_ != 0) {                                                                  \
      std::printf("FAILED %s -> %d at line %d\n", #x, static_cast<int>(e_), __LINE__); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

__global__ void fill(float* p, size_t n, float v) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v + i % 7;
}
__global__ void inc(float* p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] += 1;
}
__global__ void vadd(const float* a, const float* b, float* c, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
// Touches one word per 2 MiB page of `pages` pages: evicts the GPU's TLB entries of other memory.
__global__ void touch_pages(const int* base, size_t pages, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < pages; i += gridDim.x * blockDim.x)
    acc += base[i * (size_t(2) << 20) / sizeof(int)];
  if (acc == 12345) *sink = acc;
}
__global__ void discard(char* d, size_t lines) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += gridDim.x * blockDim.x)
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(d + i * 128) : "memory");
}

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::atomic<int> launches{0}, memcpys{0}, others{0};
void CUPTIAPI on_api(void*, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void* data) {
  const auto* d = static_cast<const CUpti_CallbackData*>(data);
  if (dom != CUPTI_CB_DOMAIN_DRIVER_API || d->callbackSite != CUPTI_API_ENTER) return;
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx)
    ++launches;
  else if (std::strstr(d->functionName, "cuMemcpy") || std::strstr(d->functionName, "cuMemset"))
    ++memcpys;
  else
    ++others;
}

std::vector<std::pair<std::string, double>> kernel_durations;  // name, ns
std::atomic<int> memcpy_records{0};
void CUPTIAPI buf_request(uint8_t** b, size_t* size, size_t* max) {
  *size = 1 << 20;
  *b = static_cast<uint8_t*>(aligned_alloc(8, *size));
  *max = 0;
}
void CUPTIAPI buf_complete(CUcontext, uint32_t, uint8_t* b, size_t, size_t valid) {
  CUpti_Activity* r = nullptr;
  while (cuptiActivityGetNextRecord(b, valid, &r) == CUPTI_SUCCESS) {
    if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(r);
      kernel_durations.emplace_back(std::string(static_cast<const char*>(k->name)), static_cast<double>(k->end - k->start));
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY || r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      ++memcpy_records;
    }
  }
  free(b);
}

using SaveFn = CUptiResult (*)(CUpti_Checkpoint*);

int main(int argc, char** argv) {
  const bool under_ncu = argc > 1 && std::string(argv[1]) == "ncu";
  CK(cudaFree(nullptr));
  CUcontext ctx = nullptr;
  CK(cuCtxGetCurrent(&ctx));
  const size_t n1 = 1 << 20, n2 = 2 << 20, n8 = 8 << 20;
  float *a, *b, *c;
  CK(cudaMalloc(&a, n8 * 4));
  CK(cudaMalloc(&b, n8 * 4));
  CK(cudaMalloc(&c, n8 * 4));
  fill<<<264, 256>>>(a, n8, 1);
  fill<<<264, 256>>>(b, n8, 2);
  CK(cudaDeviceSynchronize());
  if (under_ncu) {  // the short kernels ncu times
    for (size_t n : {n1, n2, n8})
      for (int i = 0; i < 10; ++i) vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
    CK(cudaDeviceSynchronize());
    return 0;
  }

  int l2 = 0, dev = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  char* scratch = nullptr;
  const size_t sb = size_t(2) * l2 / 128 * 128;
  CK(cudaMalloc(&scratch, sb));
  int value = 0;
  auto flush = [&] {
    CK(cudaMemsetAsync(scratch, ++value, sb));
    discard<<<528, 256>>>(scratch, sb / 128);
    CK(cudaDeviceSynchronize());
  };
  // Times vadd of 1M, 2M and 8M floats, 10 launches each, each after `before()` and a flush,
  // with activity records of `kind`; prints the medians after `label`.
  auto measure = [&](const std::string& label, CUpti_ActivityKind kind, const std::function<void()>& before,
                     const std::function<void()>& after_flush) {
    kernel_durations.clear();
    CK(cuptiActivityEnable(kind));
    for (size_t n : {n1, n2, n8}) {
      for (int i = 0; i < 10; ++i) {
        before();
        flush();
        after_flush();
        vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
        CK(cudaDeviceSynchronize());
      }
    }
    CK(cuptiActivityFlushAll(1));
    CK(cuptiActivityDisable(kind));
    std::vector<double> v[3];
    size_t k = 0;
    for (const auto& [name, ns] : kernel_durations)
      if (name.find("vadd") != std::string::npos) v[std::min<size_t>(2, k++ / 10)].push_back(ns);
    for (auto& x : v) std::sort(x.begin(), x.end());
    std::printf("%s: vadd 1M median %.0f ns, 2M %.0f ns, 8M %.0f ns\n", label.c_str(),
                v[0].empty() ? 0 : v[0][5], v[1].empty() ? 0 : v[1][5], v[2].empty() ? 0 : v[2][5]);
  };
  const auto nothing = [] {};
  CK(cuptiActivityRegisterCallbacks(buf_request, buf_complete));
  // 1. Activity kinds on short kernels, flushed before each.
  measure("activity kind CONCURRENT_KERNEL", CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, nothing, nothing);
  measure("activity kind KERNEL", CUPTI_ACTIVITY_KIND_KERNEL, nothing, nothing);
  // 1b. Does an idle GPU before a kernel (as under ncu, which does milliseconds of host work
  // before every profiled kernel) make it slower? flush, sleep, kernel.
  for (int sleep_us : {200, 2000, 20000}) {
    measure("idle " + std::to_string(sleep_us) + " us between flush and kernel",
            CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, nothing,
            [&] { std::this_thread::sleep_for(std::chrono::microseconds(sleep_us)); });
  }
  // 1c. Does a cold TLB explain ncu's longer short kernels? Touch 1 or 8 GiB of pages before the
  // L2 flush, then the kernel.
  for (size_t gib : {size_t(1), size_t(8)}) {
    int* pagebuf = nullptr;
    CK(cudaMalloc(&pagebuf, gib << 30));
    CK(cudaMemset(pagebuf, 0, gib << 30));
    measure("TLB: " + std::to_string(gib) + " GiB of pages touched before the flush",
            CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
            [&] { touch_pages<<<64, 128>>>(pagebuf, (gib << 30) >> 21, reinterpret_cast<int*>(c)); },
            nothing);
    CK(cudaFree(pagebuf));
  }

  // 2. L2 flush cost (kscope's: memset 2 x L2 then discard the scratch lines, then sync).
  for (int rep = 0; rep < 2; ++rep) {
    auto t0 = Clock::now();
    for (int i = 0; i < 100; ++i) {
      CK(cudaMemsetAsync(scratch, i, sb));
      discard<<<528, 256>>>(scratch, sb / 128);
      CK(cudaDeviceSynchronize());
    }
    std::printf("L2 flush (L2 %d bytes, scratch %zu): %.1f us each\n", l2, sb, ms(t0, Clock::now()) * 10);
  }

  // 3. Checkpoint API.
  void* lib = dlopen("libcheckpoint.so", RTLD_NOW);
  if (!lib) {
    std::printf("dlopen libcheckpoint.so failed: %s\n", dlerror());
    return 1;
  }
  auto save = reinterpret_cast<SaveFn>(dlsym(lib, "cuptiCheckpointSave"));
  auto restore = reinterpret_cast<SaveFn>(dlsym(lib, "cuptiCheckpointRestore"));
  auto release = reinterpret_cast<SaveFn>(dlsym(lib, "cuptiCheckpointFree"));
  std::printf("symbols: save %p restore %p free %p\n", (void*)save, (void*)restore, (void*)release);
  CUpti_SubscriberHandle sub;
  CK(cuptiSubscribe(&sub, on_api, nullptr));
  CK(cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API));
  CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
  CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
  for (size_t extra_gb : {0, 1, 4, 16}) {
    void* big = nullptr;
    if (extra_gb) {
      CK(cudaMalloc(&big, extra_gb << 30));
      CK(cudaMemset(big, 1, extra_gb << 30));
    }
    // CUPTI_CHECKPOINT_OPT_TRANSFER: the first restore returned 999 (CUPTI_ERROR_UNKNOWN) on the H200.
    for (uint8_t opt : {uint8_t(CUPTI_CHECKPOINT_OPT_NONE)}) {
      CK(cudaDeviceSynchronize());
      CK(cuptiActivityFlushAll(1));
      kernel_durations.clear();
      memcpy_records = 0;
      launches = memcpys = others = 0;
      CUpti_Checkpoint cp{};
      cp.structSize = CUpti_Checkpoint_STRUCT_SIZE;
      cp.ctx = ctx;
      cp.allowOverwrite = 1;
      cp.optimizations = opt;
      auto t0 = Clock::now();
      CK(save(&cp));
      auto t1 = Clock::now();
      const int l_save = launches, m_save = memcpys, o_save = others;
      std::vector<double> rs;
      bool ok = true;
      for (int p = 0; p < 4; ++p) {
        inc<<<264, 256>>>(a, n8);
        CK(cudaDeviceSynchronize());
        auto r0 = Clock::now();
        CK(restore(&cp));
        CK(cudaDeviceSynchronize());
        rs.push_back(ms(r0, Clock::now()));
        float host[8];
        CK(cudaMemcpy(host, a, sizeof host, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 8; ++i) ok = ok && host[i] == 1.0f + i % 7;
      }
      auto t2 = Clock::now();
      CK(save(&cp));  // overwrite
      auto t3 = Clock::now();
      CK(release(&cp));
      CK(cudaDeviceSynchronize());
      CK(cuptiActivityFlushAll(1));
      std::printf(
          "checkpoint +%zu GiB opt %d: save %.2f ms, restores %.2f %.2f %.2f %.2f ms, re-save %.2f ms, "
          "memory restored %s; during save: %d launch cb, %d memcpy/memset cb, %d other cb; "
          "over all: %zu kernel records, %d memcpy/memset records\n",
          extra_gb, opt, ms(t0, t1), rs[0], rs[1], rs[2], rs[3], ms(t2, t3), ok ? "yes" : "NO", l_save,
          m_save, o_save, kernel_durations.size() > 4 ? kernel_durations.size() - 4 : 0,
          memcpy_records.load());
      (void)t2;
    }
    if (big) CK(cudaFree(big));
  }
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  std::printf("device memory free %zu MiB of %zu MiB\n", free_b >> 20, total_b >> 20);
  return 0;
}
