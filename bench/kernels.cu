// Kernels of known size for the accuracy, stability and metrics benchmarks, measured by kscope
// (any tool, any metrics) or by CUDA events without kscope.
//   kscope_bench_kernels --kernel vadd|fma --sizes 1048576,8388608 [--runs 10] [--tool cupti]
//       [--cache all|none] [--metrics a,b] [--metric-replay checkpoint|application|kernel]
//       [--duration-source activity|profiler] [--events]
//       [--debug] [--sessions N] [--keep-counters S] --out results.json
// vadd: c = a + b over `size` floats (12 bytes per element). fma: 528 blocks of 256 threads,
// each thread runs `size` iterations of two dependent FMAs. --events times every launch with
// CUDA events instead (no kscope) and writes {"kernel", "sizes", "events_ns": [[...], ...]}.
// --sessions N calls profile() N times in the process and writes the last call's results;
// --keep-counters S sets KSCOPE_KEEP_COUNTERS_S (a metrics call keeps its range profiler for the
// next).
#include <kscope/kscope.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

__global__ void vadd_kernel(const float* a, const float* b, float* c, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

__global__ void fma_kernel(float* out, long iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i * 1e-6f, y = 1.0001f;
  for (long k = 0; k < iterations; ++k) {
    x = fmaf(x, y, 0.5f);
    y = fmaf(y, 0.9999f, 1e-7f);
  }
  out[i] = x + y;
}

__global__ void fill_kernel(float* x, float v, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) x[i] = v;
}

constexpr int kFmaBlocks = 132 * 4, kThreads = 256;

struct Buffers {
  float *a = nullptr, *b = nullptr, *c = nullptr;
  long n = 0;
  void ensure(long need) {
    if (need <= n) return;
    cudaFree(a); cudaFree(b); cudaFree(c);
    cudaMalloc(&a, need * sizeof(float));
    cudaMalloc(&b, need * sizeof(float));
    cudaMalloc(&c, need * sizeof(float));
    fill_kernel<<<1024, 256>>>(a, 1.0f, need);
    fill_kernel<<<1024, 256>>>(b, 2.0f, need);
    cudaDeviceSynchronize();
    n = need;
  }
};

void launch(const std::string& kernel, Buffers& buf, long size) {
  if (kernel == "vadd") {
    const int blocks = static_cast<int>(std::min<long>((size + 255) / 256, 132L * 16));
    vadd_kernel<<<blocks, 256>>>(buf.a, buf.b, buf.c, size);
  } else {
    fma_kernel<<<kFmaBlocks, kThreads>>>(buf.c, size);
  }
}

std::vector<long> parse_list(const char* s) {
  std::vector<long> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::atol(item.c_str()));
  return out;
}

std::vector<std::string> parse_names(const char* s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

int events_mode(const std::string& kernel, const std::vector<long>& sizes, int runs, const std::string& out) {
  Buffers buf;
  buf.ensure(kernel == "vadd" ? *std::max_element(sizes.begin(), sizes.end()) : kFmaBlocks * kThreads);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::ofstream f(out);
  f << "{\"kernel\": \"" << kernel << "\", \"sizes\": [";
  for (std::size_t i = 0; i < sizes.size(); ++i) f << (i ? "," : "") << sizes[i];
  f << "], \"events_ns\": [";
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    launch(kernel, buf, sizes[s]);  // warm-up
    cudaDeviceSynchronize();
    f << (s ? "," : "") << "[";
    for (int r = 0; r < runs; ++r) {
      cudaEventRecord(start);
      launch(kernel, buf, sizes[s]);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      f << (r ? "," : "") << ms * 1e6;
    }
    f << "]";
  }
  f << "]}\n";
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

// Device-to-device copy of 1 GiB timed with events, bytes read + written per second, 10 copies.
int copy_rate_mode(const std::string& out) {
  const std::size_t bytes = std::size_t{1} << 30;
  void *src = nullptr, *dst = nullptr;
  cudaMalloc(&src, bytes);
  cudaMalloc(&dst, bytes);
  cudaMemset(src, 1, bytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::ofstream f(out);
  f << "{\"bytes\": " << bytes << ", \"gbps\": [";
  for (int i = 0; i < 12; ++i) {
    cudaEventRecord(start);
    cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (i >= 2) f << (i > 2 ? "," : "") << 2.0 * bytes / (ms * 1e-3) / 1e9;
  }
  f << "]}\n";
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string kernel = "vadd", out = "bench_kernels.json", tool = "cupti", cache = "all";
  std::string metric_replay, duration_source;
  std::vector<long> sizes{1 << 20};
  std::vector<std::string> metrics{kscope::kTimeMetric};
  int runs = 10, sessions = 1;
  bool events = false, copy_rate = false, debug = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--events") { events = true; continue; }
    if (arg == "--debug") { debug = true; continue; }  // kscope's DEBUG lines to stderr
    if (arg == "--copy-rate") { copy_rate = true; continue; }
    if (arg == "--kernel") kernel = value;
    else if (arg == "--sizes") sizes = parse_list(value);
    else if (arg == "--runs") runs = std::atoi(value);
    else if (arg == "--sessions") sessions = std::max(1, std::atoi(value));
    else if (arg == "--tool") tool = value;
    else if (arg == "--cache") cache = value;
    else if (arg == "--metrics") metrics = parse_names(value);
    else if (arg == "--metric-replay") metric_replay = value;
    else if (arg == "--duration-source") duration_source = value;
    else if (arg == "--keep-counters") setenv("KSCOPE_KEEP_COUNTERS_S", value, 1);
    else if (arg == "--out") out = value;
    else { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
    ++i;
  }
  if (kernel != "vadd" && kernel != "fma") { std::fprintf(stderr, "--kernel must be vadd or fma\n"); return 2; }
  try {
    if (events || copy_rate) {
      std::string why;
      if (!kscope::device_available(&why)) throw kscope::NoDeviceError("no CUDA device: " + why);
      return copy_rate ? copy_rate_mode(out) : events_mode(kernel, sizes, runs, out);
    }
    std::vector<kscope::Config> sweep;
    for (long s : sizes) sweep.emplace_back(std::vector<kscope::Value>{s}, std::vector<std::string>{"size"});
    kscope::Options opt;
    opt.runs = runs;
    opt.tool = tool;
    opt.cache_control = cache;
    opt.metrics = metrics;
    opt.verbosity = kscope::Verbosity::kSilent;
    if (debug) {  // set-up cost, CUPTI calls and per-run host time by phase
      opt.verbosity = kscope::Verbosity::kDebug;
      opt.log = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); };
    }
    opt.output_prefix = out + ".files/";
    if (!metric_replay.empty()) opt.metric_replay = metric_replay;
    if (!duration_source.empty()) opt.duration_source = duration_source;
    // Allocate and fill before profiling: every run (and every replay pass) then launches the
    // same kernels, as application replay requires.
    Buffers buf;
    buf.ensure(kernel == "vadd" ? *std::max_element(sizes.begin(), sizes.end()) : kFmaBlocks * kThreads);
    auto sweep_once = [&] {
      return kscope::profile("bench_" + kernel, sweep, [&](const kscope::Config& c) {
        kscope::Annotation range(kernel);
        launch(kernel, buf, c.get<long>("size"));
      }, opt);
    };
    auto results = sweep_once();
    // Later calls in the same process: what stays set up between profile() calls shows here.
    for (int s = 1; s < sessions; ++s) results = sweep_once();
    results.write_json(out);
  } catch (const kscope::Error& e) {
    std::fprintf(stderr, "kscope: %s\n", e.what());
    return 1;
  }
  return 0;
}
