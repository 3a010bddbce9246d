// Experiment (not a test): what each step of a timing session's set-up costs on this GPU, the
// first time in a process and again, and what a CUPTI subscription left in place costs a launch.
// Build and run:
//   nvcc -O2 -std=c++17 -arch=sm_90 -I$CUDA/include bench/probes/setup_probe.cu \
//        -L$CUDA/lib64 -lcupti -ldl -o /tmp/setup_probe && /tmp/setup_probe
// Prints one line per step: "<step> round <r>: <us>".
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

__global__ void spin(long long ns) {
  long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

#define CHECK(x)                                                               \
  do {                                                                         \
    CUptiResult r_ = (x);                                                      \
    if (r_ != CUPTI_SUCCESS) {                                                 \
      const char* s_ = nullptr;                                                \
      cuptiGetResultString(r_, &s_);                                           \
      std::fprintf(stderr, "%s failed: %s\n", #x, s_ ? s_ : "?");              \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr CUpti_CallbackId kIds[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,           CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};

std::size_t g_records = 0;
void* volatile g_observer = nullptr;
void CUPTIAPI on_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void* data) {
  if (!g_observer) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  static volatile unsigned sink;
  sink = cb->correlationId;
}
void CUPTIAPI on_request(uint8_t** buffer, size_t* size, size_t* max) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max = 0;
}
void CUPTIAPI on_complete(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* r = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) ++g_records;
  std::free(buffer);
}

double loop(int runs, long long ns) {
  const auto t0 = Clock::now();
  for (int i = 0; i < runs; ++i) {
    spin<<<1, 32>>>(ns);
    cudaDeviceSynchronize();
  }
  return us_since(t0) / runs;
}

void report(const char* step, int round, double us) {
  std::printf("%-44s round %d: %10.1f us\n", step, round, us);
}

}  // namespace

int main() {
  const long long ns = 5000;
  const int runs = 1000;
  spin<<<1, 32>>>(ns);
  cudaDeviceSynchronize();
  report("bare launch+sync per run", 0, loop(runs, ns));

  for (int round = 1; round <= 3; ++round) {
    auto t = Clock::now();
    CUpti_SubscriberHandle sub = nullptr;
    CHECK(cuptiSubscribe(&sub, reinterpret_cast<CUpti_CallbackFunc>(&on_callback), nullptr));
    report("cuptiSubscribe", round, us_since(t));
    t = Clock::now();
    for (auto id : kIds) CHECK(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, id));
    report("cuptiEnableCallback x8", round, us_since(t));
    t = Clock::now();
    CHECK(cuptiActivityRegisterCallbacks(on_request, on_complete));
    report("cuptiActivityRegisterCallbacks", round, us_since(t));
    t = Clock::now();
    CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    report("cuptiActivityEnable", round, us_since(t));
    g_observer = &g_records;
    t = Clock::now();
    spin<<<1, 32>>>(ns);
    cudaDeviceSynchronize();
    report("first launch+sync after enable", round, us_since(t));
    report("traced launch+sync per run", round, loop(runs, ns));
    t = Clock::now();
    CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    report("cuptiActivityFlushAll forced (1000 records)", round, us_since(t));
    t = Clock::now();
    spin<<<1, 32>>>(ns);
    cudaDeviceSynchronize();
    report("first launch+sync after flush", round, us_since(t));
    t = Clock::now();
    CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    report("cuptiActivityFlushAll forced (1 record)", round, us_since(t));
    g_observer = nullptr;
    report("subscribed, observer off, activity on: run", round, loop(runs, ns));
    t = Clock::now();
    for (auto id : kIds) CHECK(cuptiEnableCallback(0, sub, CUPTI_CB_DOMAIN_DRIVER_API, id));
    report("cuptiEnableCallback(0) x8", round, us_since(t));
    report("subscribed, callbacks off, activity on: run", round, loop(runs, ns));
    t = Clock::now();
    CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    report("flush + cuptiActivityDisable", round, us_since(t));
    report("subscribed, callbacks off, activity off: run", round, loop(runs, ns));
    t = Clock::now();
    CHECK(cuptiEnableDomain(0, sub, CUPTI_CB_DOMAIN_DRIVER_API));
    CHECK(cuptiUnsubscribe(sub));
    report("cuptiUnsubscribe", round, us_since(t));
    report("after unsubscribe: run", round, loop(runs, ns));
  }

  for (int round = 1; round <= 2; ++round) {
    auto t = Clock::now();
    void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    report("dlopen libnvidia-ml", round, us_since(t));
    if (!nvml) break;
    using InitFn = int (*)();
    using HandleFn = int (*)(unsigned, void**);
    using TempFn = int (*)(void*, int, unsigned*);
    using ClockFn = int (*)(void*, int, unsigned*);
    auto init = reinterpret_cast<InitFn>(dlsym(nvml, "nvmlInit_v2"));
    auto shutdown = reinterpret_cast<InitFn>(dlsym(nvml, "nvmlShutdown"));
    auto handle = reinterpret_cast<HandleFn>(dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2"));
    auto temp = reinterpret_cast<TempFn>(dlsym(nvml, "nvmlDeviceGetTemperature"));
    auto clock = reinterpret_cast<ClockFn>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
    t = Clock::now();
    init();
    report("nvmlInit_v2", round, us_since(t));
    void* dev = nullptr;
    t = Clock::now();
    handle(0, &dev);
    report("nvmlDeviceGetHandleByIndex", round, us_since(t));
    unsigned v = 0;
    t = Clock::now();
    temp(dev, 0, &v);
    clock(dev, 1, &v);
    report("one temperature + clock reading", round, us_since(t));
    t = Clock::now();
    shutdown();
    report("nvmlShutdown", round, us_since(t));
  }
  for (int round = 1; round <= 2; ++round) {
    auto t = Clock::now();
    void* p = nullptr;
    cudaMalloc(&p, 120u << 20);
    report("cudaMalloc 120 MiB", round, us_since(t));
    t = Clock::now();
    cudaFree(p);
    report("cudaFree 120 MiB", round, us_since(t));
    t = Clock::now();
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    report("cudaGetDeviceProperties", round, us_since(t));
    t = Clock::now();
    std::thread th([] {});
    th.join();
    report("std::thread start + join", round, us_since(t));
  }
  std::printf("activity records decoded: %zu\n", g_records);
  return 0;
}
