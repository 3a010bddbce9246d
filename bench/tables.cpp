// The "tables" step of profile() (fill_tables: extraction, raw and processed tables, timeline
// kernels) on a made-up session (made_up_session.hpp), on the CPU: what bench/README.md's "Tables" describes.
//
//   kscope_bench_tables [configs runs metrics repeats] [--ignore] [--telemetry]
//
// Defaults 100 10 1 300 (each at least 1). Prints the best and the median time of fill_tables
// over the repeats, and the page faults per call (fresh memory: the allocator had given back
// to the system what the tables now allocate).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "api/session_tables.hpp"
#include "core/logger.hpp"
#include "made_up_session.hpp"

namespace {

using namespace kscope;

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

std::vector<RunTelemetry> telemetry(std::size_t configs, std::size_t runs) {
  std::vector<RunTelemetry> out;
  for (std::size_t c = 0; c < configs; ++c) {
    for (std::size_t r = 0; r < runs; ++r) {
      TelemetrySample s;
      s.sm_clock_mhz = 1980;
      s.temperature_c = 40;
      s.power_w = 120.5;
      s.clock_event_reasons = 0;
      RunTelemetry t;
      t.config = c;
      t.run = r;
      t.before = t.after = s;
      out.push_back(t);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> shape{100, 10, 1, 300};
  bool ignore = false, with_telemetry = false;
  for (int i = 1, n = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ignore") == 0) {
      ignore = true;
    } else if (std::strcmp(argv[i], "--telemetry") == 0) {
      with_telemetry = true;
    } else if (n < 4) {
      shape[static_cast<std::size_t>(n++)] = std::strtoul(argv[i], nullptr, 10);
    }
  }
  for (auto& n : shape) n = std::max<std::size_t>(1, n);
  const std::size_t configs = shape[0], runs = shape[1], metrics = shape[2], repeats = shape[3];
  Options opt;
  opt.verbosity = Verbosity::kSilent;
  for (std::size_t m = 1; m < metrics; ++m) {
    opt.metrics.push_back("dram__bytes_read.sum." + std::to_string(m));
  }
  if (ignore) opt.ignore_kernel_list = {"cudaMemsetAsync_kernel", "flush_l2"};
  std::vector<Config> sweep;
  for (std::size_t c = 0; c < configs; ++c) {
    sweep.emplace_back(std::vector<Value>{Value(c)}, std::vector<std::string>{"n"});
    sweep.back().set_index(c);
  }
  const Logger log(opt);
  std::vector<double> ms;
  long faults = 0;
  for (std::size_t i = 0; i < repeats; ++i) {
    Session::Output out = bench::made_up_session(opt.metrics, configs, runs);
    Results::Data d = session_data("tables", 0, opt, sweep);
    if (with_telemetry) d.telemetry = telemetry(configs, runs);
    const long faults_before = minor_faults();
    const auto t0 = std::chrono::steady_clock::now();
    fill_tables(out, log, &d);
    const auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    faults += minor_faults() - faults_before;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("fill_tables, %zu configs x %zu runs, %zu metric(s)%s%s: best %.3f ms, median %.3f "
              "ms, %.1f page faults (%zu repeats)\n",
              configs, runs, metrics, ignore ? ", ignore list" : "",
              with_telemetry ? ", telemetry" : "", ms.front(), ms[ms.size() / 2],
              static_cast<double>(faults) / static_cast<double>(ms.size()), ms.size());
  return 0;
}
