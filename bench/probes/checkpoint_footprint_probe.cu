// Experiment (not a test): what one CUPTI checkpoint save and restore cost as the process's device
// footprint grows, and which of the checkpoint's options change it (issue 35: a multi-pass
// checkpoint-replay sweep took 1.2 s at 8 GB held and 181.9 s at 110 GB). Build and run:
//   nvcc -O2 -std=c++17 -arch=sm_90 -I$CUDA/include bench/probes/checkpoint_footprint_probe.cu \
//        -L$CUDA/lib64 -lcupti -lcuda -ldl -o /tmp/ckpt && /tmp/ckpt 8 60 110
//   /tmp/ckpt --target 110     (holds 110 GB and runs the in-place kernel 3 times: for ncu)
//   CKPT_PLAIN=1 /tmp/ckpt 110  (without trying OPT_TRANSFER)
// Per footprint (GB, allocated in 1 GB blocks and written), one checkpoint with OPT_TRANSFER
// (restore only the blocks that changed) and allowOverwrite, or without TRANSFER when that fails:
//   save       a fresh save (what kscope does before every measured run: free, then save)
//   restore    twice, each after the in-place kernel changed 64 MiB, the values checked
//   save over  a save over the kept copy (allowOverwrite)
// with the device's free memory after each step (where the copy went), and the host's RSS.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_checkpoint.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace NV::Cupti::Checkpoint;
using Clock = std::chrono::steady_clock;
using Fn = CUptiResult (*)(CUpti_Checkpoint*);

#define CK(x)                                                                          \
  do {                                                                                 \
    auto e_ = (x);                                                                     \
    if (e_ != 0) {                                                                     \
      std::printf("FAILED %s -> %d at line %d\n", #x, static_cast<int>(e_), __LINE__); \
      std::fflush(stdout);                                                             \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

__global__ void inc(float* p, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] += 1.0f;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double free_gb() {
  size_t f = 0, t = 0;
  cudaMemGetInfo(&f, &t);
  return f / 1e9;
}

double rss_gb() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  long pages = 0, rss = 0;
  if (f) {
    if (std::fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
    std::fclose(f);
  }
  return rss * 4096.0 / 1e9;
}

struct Api {
  Fn save, restore, release;
};

Api load() {
  void* lib = dlopen("libcheckpoint.so", RTLD_NOW);
  if (!lib) {
    std::printf("libcheckpoint.so: %s\n", dlerror());
    std::exit(1);
  }
  return {reinterpret_cast<Fn>(dlsym(lib, "cuptiCheckpointSave")),
          reinterpret_cast<Fn>(dlsym(lib, "cuptiCheckpointRestore")),
          reinterpret_cast<Fn>(dlsym(lib, "cuptiCheckpointFree"))};
}

CUpti_Checkpoint handle(CUcontext ctx, bool overwrite, uint8_t opt) {
  CUpti_Checkpoint c{};
  c.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  c.ctx = ctx;
  c.allowOverwrite = overwrite ? 1 : 0;
  c.optimizations = opt;
  return c;
}

// The footprint: `gb` blocks of 1 GB, each written, plus the 64 MiB the kernel changes.
struct Footprint {
  std::vector<void*> blocks;
  float* x = nullptr;
  size_t n = size_t(16) << 20;
  explicit Footprint(int gb) {
    for (int i = 0; i < gb; ++i) {
      void* p = nullptr;
      if (cudaMalloc(&p, size_t(1) << 30) != cudaSuccess) {
        std::printf("  only %d GB could be allocated\n", i);
        cudaGetLastError();
        break;
      }
      cudaMemset(p, i & 0xff, size_t(1) << 30);
      blocks.push_back(p);
    }
    CK(cudaMalloc(&x, n * sizeof(float)));
    CK(cudaMemset(x, 0, n * sizeof(float)));
    CK(cudaDeviceSynchronize());
  }
  ~Footprint() {
    for (void* p : blocks) cudaFree(p);
    cudaFree(x);
  }
  void change() {
    inc<<<1024, 256>>>(x, n);
    CK(cudaDeviceSynchronize());
  }
  float first() const {
    float v = 0;
    CK(cudaMemcpy(&v, x, sizeof v, cudaMemcpyDeviceToHost));
    return v;
  }
};

// One checkpoint handle, saved, then restored twice after the kernel changed memory, then saved
// over (allowOverwrite); every step timed, every call's status printed (TRANSFER failed with
// CUPTI_ERROR_UNKNOWN on an H200 with small footprints). Returns false when a call failed.
bool cycle(const Api& api, CUcontext ctx, Footprint& fp, uint8_t opt, const char* name) {
  CUpti_Checkpoint c = handle(ctx, true, opt);
  auto step = [&](const char* what, Fn fn) {
    const auto t0 = Clock::now();
    const CUptiResult r = fn(&c);
    std::printf("  %-9s %-14s %10.1f ms -> %d (device free %.1f GB, host RSS %.2f GB)\n", name, what,
                ms_since(t0), static_cast<int>(r), free_gb(), rss_gb());
    std::fflush(stdout);
    return r == CUPTI_SUCCESS;
  };
  bool ok = step("save", api.save);
  for (int i = 0; ok && i < 2; ++i) {
    const float v = fp.first();
    fp.change();
    ok = step("restore", api.restore);
    std::printf("  %-9s value %.0f -> %.0f -> %.0f (restored: %s)\n", name, v, v + 1, fp.first(),
                fp.first() == v ? "yes" : "NO");
  }
  if (ok) {
    fp.change();
    ok = step("save over", api.save);
  }
  (void)api.release(&c);
  return ok;
}

void measure(const Api& api, CUcontext ctx, int gb, bool transfer) {
  Footprint fp(gb);
  std::printf("footprint %d GB held (%zu blocks), device free %.1f GB, host RSS %.2f GB\n", gb,
              fp.blocks.size(), free_gb(), rss_gb());
  std::fflush(stdout);
  if (transfer && cycle(api, ctx, fp, CUPTI_CHECKPOINT_OPT_TRANSFER, "transfer")) return;
  (void)cycle(api, ctx, fp, CUPTI_CHECKPOINT_OPT_NONE, "plain");
}

int main(int argc, char** argv) {
  CK(cudaFree(nullptr));
  CUcontext ctx = nullptr;
  CK(cuCtxGetCurrent(&ctx));
  if (argc > 2 && std::string(argv[1]) == "--target") {
    Footprint fp(std::atoi(argv[2]));
    std::printf("holding %zu GB, device free %.1f GB\n", fp.blocks.size(), free_gb());
    for (int r = 0; r < 3; ++r) fp.change();
    std::printf("value %.0f (3 expected)\n", fp.first());
    return 0;
  }
  uint32_t version = 0;
  CK(cuptiGetVersion(&version));  // libcheckpoint works beside a loaded libcupti
  const Api api = load();
  const bool transfer = std::getenv("CKPT_PLAIN") == nullptr;  // CKPT_PLAIN=1: no TRANSFER try
  for (int i = 1; i < argc; ++i) measure(api, ctx, std::atoi(argv[i]), transfer);
  return 0;
}
