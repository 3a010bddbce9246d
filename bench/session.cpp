// kscope's own host time per run on the CPU: a sweep of one annotated "launch" per run through
// profile()'s real plan, Session, journal, tables and CSV files (api/device_free_session.hpp),
// with the cupti timing path's real launch observer and joiner fed by made-up kernel activity
// records instead of CUPTI, and a made-up device whose "kernel" ends `--kernel-us` after its
// launch (the synchronisation spins until then), against a bare loop making the same launches and
// synchronisations. What bench/README.md's "Session" describes.
//
//   kscope_bench_session [configs runs repeats] [--kernel-us T] [--debug]
//
// Defaults 100 10 20, T 10 (what the H200 waits after launching a 5 us kernel). Prints the best and the median of (kscope - bare) / runs over the repeats,
// in microseconds; --debug prints every session's DEBUG lines (phases per run, fixed cost).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "api/device_free_session.hpp"
#include "made_up_timing.hpp"
#include "kscope/annotation.hpp"

namespace {

using namespace kscope;
using bench::Clock;
using bench::MadeUpDevice;
using bench::MadeUpTiming;

const char* const kKernel = "_Z11spin_kernelx";

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> shape{100, 10, 20};
  bool debug = false;
  double kernel_us = 10;
  std::size_t n = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--debug")) {
      debug = true;
    } else if (!std::strcmp(argv[i], "--kernel-us") && i + 1 < argc) {
      kernel_us = std::atof(argv[++i]);
    } else if (n < shape.size()) {
      shape[n++] = std::max(1UL, std::strtoul(argv[i], nullptr, 10));
    }
  }
  std::vector<Config> sweep;
  for (std::size_t c = 0; c < shape[0]; ++c) {
    sweep.emplace_back(std::vector<Value>{static_cast<int>(c)}, std::vector<std::string>{"config"});
  }
  Options opt;
  opt.runs = static_cast<int>(shape[1]);
  opt.verbosity = debug ? Verbosity::kDebug : Verbosity::kSilent;
  if (debug) opt.log = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); };
  opt.cache_control = "none";
  opt.thermal.mode = "off";
  opt.output_prefix = "/tmp/kscope_bench_session/";
  const double runs = static_cast<double>(shape[0] * (shape[1] + 1));  // one warm-up per config
  const auto kernel = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double, std::micro>(kernel_us));
  std::vector<double> added_us;
  for (std::size_t i = 0; i < shape[2]; ++i) {
    MadeUpDevice bare_device(kernel);
    MadeUpTiming bare(&bare_device);
    auto t0 = Clock::now();
    for (double r = 0; r < runs; ++r) {
      bare.launch(kKernel);
      bare_device.synchronize();
    }
    (void)bare.flush();
    const double bare_ms = ms_since(t0);
    auto device = std::make_unique<MadeUpDevice>(kernel);
    auto timing = std::make_unique<MadeUpTiming>(device.get());
    MadeUpTiming* tool = timing.get();
    t0 = Clock::now();
    (void)profile_without_device("session", sweep, [tool](const Config&) {
      Annotation a("spin");
      tool->launch(kKernel);
    }, opt, std::move(timing), std::move(device));
    added_us.push_back(1000.0 * (ms_since(t0) - bare_ms) / runs);
  }
  std::sort(added_us.begin(), added_us.end());
  std::printf("kscope's host time per run, %zu configs x %zu runs (+1 warm-up) of a %.1f us kernel: "
              "best %.2f us, median %.2f us (%zu repeats)\n",
              shape[0], shape[1], kernel_us, added_us.front(), added_us[added_us.size() / 2],
              added_us.size());
  return 0;
}
