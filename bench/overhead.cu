// Timing overhead of kscope's cupti tool against a bare loop doing the same work.
//   kscope_bench_overhead --configs N --runs R --kernel-ns T [--repeats K] [--cache none|all]
//                         [--tool cupti|ncu]
// With the cupti tool it runs, alternating, K times each: (a) the bare loop: for every config and
// run, launch a spin kernel of T ns and synchronise the device (what kscope's loop does around a
// run); (b) the same sweep through kscope::profile (SILENT, thermal off); (c) and (d) both with
// twice the runs, which separates kscope's cost per run from its fixed cost per call; before them,
// the process's first profile() call (one config) is timed. With the ncu tool it runs the kscope
// sweep once (the program re-runs itself under ncu). Prints one JSON object with every wall time
// (s) and the per-run kernel durations kscope measured.
#include <kscope/kscope.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

__global__ void spin(long long ns) {
  long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string json_list(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  int configs = 1, runs = 1000, repeats = 3;
  long long kernel_ns = 5000;
  std::string cache = "none", tool = "cupti";
  bool debug = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--debug")) debug = true;  // kscope's DEBUG lines to stderr
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--debug")) { --i; continue; }
    if (!std::strcmp(argv[i], "--configs")) configs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--kernel-ns")) kernel_ns = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeats")) repeats = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cache")) cache = argv[i + 1];
    else if (!std::strcmp(argv[i], "--tool")) tool = argv[i + 1];
    else { std::fprintf(stderr, "unknown argument %s\n", argv[i]); return 2; }
  }
  try {
    std::vector<kscope::Config> sweep;
    for (int c = 0; c < configs; ++c) sweep.emplace_back(std::vector<kscope::Value>{c}, std::vector<std::string>{"config"});
    kscope::Options opt;
    opt.runs = runs;
    opt.verbosity = kscope::Verbosity::kSilent;
    opt.cache_control = cache;
    opt.thermal.mode = "off";
    opt.output_prefix = "/tmp/kscope_bench_overhead/";
    opt.tool = tool;
    if (debug) {  // e.g. the per-run host time by phase, printed at the end of each session
      opt.verbosity = kscope::Verbosity::kDebug;
      opt.log = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); };
    }
    auto sweep_once = [&]() {
      return kscope::profile("overhead", sweep, [&](const kscope::Config&) {
        kscope::Annotation a("spin");
        spin<<<1, 32>>>(kernel_ns);
      }, opt);
    };
    if (tool != "cupti") {  // external tools: one timed sweep, nothing else (the child re-runs main)
      const auto t0 = std::chrono::steady_clock::now();
      auto res = sweep_once();
      const double wall = seconds_since(t0);
      std::vector<double> measured;
      for (const auto& row : res.raw()) measured.push_back(row.value);
      std::printf("{\"configs\": %d, \"runs\": %d, \"kernel_ns\": %lld, \"tool\": \"%s\", "
                  "\"cache_control\": \"%s\", \"tool_s\": [%f], \"kscope_kernel_ns\": %s}\n",
                  configs, runs, kernel_ns, tool.c_str(), cache.c_str(), wall,
                  json_list(measured).c_str());
      return 0;
    }
    // Warm up: module load; then the process's first profile() call (one config), timed: what
    // CUPTI's and NVML's set-up add to a first call.
    spin<<<1, 32>>>(kernel_ns);
    cudaDeviceSynchronize();
    auto t_first = std::chrono::steady_clock::now();
    (void)kscope::profile("warmup", {sweep.front()}, [&](const kscope::Config&) {
      kscope::Annotation a("spin");
      spin<<<1, 32>>>(kernel_ns);
    }, opt);
    const double first_call = seconds_since(t_first);

    auto bare_loop = [&](int runs_per_config) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int c = 0; c < configs; ++c) {
        for (int r = 0; r < runs_per_config; ++r) {
          spin<<<1, 32>>>(kernel_ns);
          cudaDeviceSynchronize();
        }
      }
      return seconds_since(t0);
    };
    // Each repeat also runs the sweep with twice the runs: the difference is the cost per run,
    // the rest the fixed cost of a call.
    std::vector<double> bare, with_kscope, bare_2x, with_kscope_2x, kernel_ns_measured;
    for (int rep = 0; rep < repeats; ++rep) {
      bare.push_back(bare_loop(runs));
      auto t0 = std::chrono::steady_clock::now();
      auto res = sweep_once();
      with_kscope.push_back(seconds_since(t0));
      if (rep == 0) {
        for (const auto& row : res.raw()) kernel_ns_measured.push_back(row.value);
      }
      bare_2x.push_back(bare_loop(2 * runs));
      opt.runs = 2 * runs;
      t0 = std::chrono::steady_clock::now();
      (void)sweep_once();
      with_kscope_2x.push_back(seconds_since(t0));
      opt.runs = runs;
    }
    std::printf("{\"configs\": %d, \"runs\": %d, \"kernel_ns\": %lld, \"tool\": \"cupti\", \"cache_control\": \"%s\", "
                "\"first_call_s\": %f, \"bare_s\": %s, \"kscope_s\": %s, \"bare_2x_s\": %s, "
                "\"kscope_2x_s\": %s, \"kscope_kernel_ns\": %s}\n",
                configs, runs, kernel_ns, cache.c_str(), first_call, json_list(bare).c_str(),
                json_list(with_kscope).c_str(), json_list(bare_2x).c_str(),
                json_list(with_kscope_2x).c_str(), json_list(kernel_ns_measured).c_str());
  } catch (const kscope::Error& e) {
    std::fprintf(stderr, "kscope: %s\n", e.what());
    return 1;
  }
  return 0;
}
