// The C++ side of bench/scale.py (issue 37): one device-free sweep of N configs x R runs of one
// annotated "launch" through profile()'s real plan, Session, journal and tables, with the cupti
// timing path's real launch observer and joiner fed by made-up kernel activity records
// (made_up_timing.hpp), next to a bare loop making the same launches; then the result written as
// JSON and read back, and the journal read back. What bench/README.md's "Scale" describes.
//
//   kscope_bench_scale configs runs out_dir [--sweep-only]
//
// --sweep-only: stops after the sweep, the Results alive (a heap profiler's "leaked" is what it
// holds).
// Prints one JSON object: sweep_s, bare_s, rss_growth_bytes (resident memory after the sweep,
// the Results alive, less before it), journal_bytes, result_bytes, write_s, load_s,
// journal_load_s, resume_s (the sweep again with resume= its journal, which holds it all),
// result and journal (the paths).

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "api/device_free_session.hpp"
#include "kscope/annotation.hpp"
#include "made_up_timing.hpp"

namespace {

using namespace kscope;
using bench::Clock;

const char* const kKernel = "_Z11spin_kernelx";

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

long long resident_bytes() {
  long long pages = 0;
  long long resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%lld %lld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * sysconf(_SC_PAGESIZE);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && !(argc == 5 && std::string(argv[4]) == "--sweep-only")) {
    std::fprintf(stderr, "usage: kscope_bench_scale configs runs out_dir [--sweep-only]\n");
    return 2;
  }
  const std::size_t configs = std::strtoul(argv[1], nullptr, 10);
  const int runs = std::atoi(argv[2]);
  const std::string out = argv[3];
  std::filesystem::create_directories(out);
  const auto make_configs = [configs] {
    std::vector<Config> sweep;
    sweep.reserve(configs);
    for (std::size_t c = 0; c < configs; ++c) {
      sweep.emplace_back(std::vector<Value>{static_cast<std::int64_t>(c)}, std::vector<std::string>{"k"});
    }
    return sweep;
  };
  std::vector<Config> sweep = make_configs();
  Options opt;
  opt.runs = runs;
  opt.verbosity = Verbosity::kSilent;
  opt.cache_control = "none";
  opt.thermal.mode = "off";
  opt.output_csv = false;
  opt.output_prefix = out + "/";

  bench::MadeUpDevice bare_device(Clock::duration::zero());
  bench::MadeUpTiming bare(&bare_device);
  auto t0 = Clock::now();
  for (std::size_t r = 0; r < configs * static_cast<std::size_t>(runs); ++r) {
    Annotation a("a");
    bare.launch(kKernel);
    bare_device.synchronize();
  }
  (void)bare.flush();
  const double bare_s = seconds_since(t0);

  // The sweep with the made-up tool, from `resume` when given.
  const auto profile = [&](std::vector<Config> cs, const Options& o) {
    auto device = std::make_unique<bench::MadeUpDevice>(Clock::duration::zero());
    auto timing = std::make_unique<bench::MadeUpTiming>(device.get());
    bench::MadeUpTiming* tool = timing.get();
    return profile_without_device("bench", std::move(cs), [tool](const Config&) {
      Annotation a("a");
      tool->launch(kKernel);
    }, o, std::move(timing), std::move(device));
  };
  const long long before = resident_bytes();
  t0 = Clock::now();
  Results result = profile(std::move(sweep), opt);
  const double sweep_s = seconds_since(t0);
  const long long grown = resident_bytes() - before;
  if (argc == 5) {
    std::printf("{\"sweep_s\": %.6f, \"rss_growth_bytes\": %lld}\n", sweep_s, grown);
    std::fflush(stdout);
    std::_Exit(0);  // what the sweep holds stays allocated: a heap profiler's "leaked"
  }

  const std::string path = out + "/result.json";
  t0 = Clock::now();
  result.write_json(path);
  const double write_s = seconds_since(t0);
  const std::string journal = result.journal_path();
  result = Results();
  t0 = Clock::now();
  (void)Results::load(path);
  const double load_s = seconds_since(t0);
  t0 = Clock::now();
  (void)Results::load(journal);
  const double journal_load_s = seconds_since(t0);
  // The sweep again from its journal, which holds it all: the resume's reading, planning and
  // tables, nothing measured.
  Options again = opt;
  again.resume = journal;
  again.output_prefix = out + "/resumed/";
  t0 = Clock::now();
  (void)profile(make_configs(), again);
  const double resume_s = seconds_since(t0);
  std::printf("{\"sweep_s\": %.6f, \"bare_s\": %.6f, \"rss_growth_bytes\": %lld, "
              "\"journal_bytes\": %llu, \"result_bytes\": %llu, \"write_s\": %.6f, "
              "\"load_s\": %.6f, \"journal_load_s\": %.6f, \"resume_s\": %.6f, "
              "\"result\": \"%s\", \"journal\": \"%s\"}\n",
              sweep_s, bare_s, grown,
              static_cast<unsigned long long>(std::filesystem::file_size(journal)),
              static_cast<unsigned long long>(std::filesystem::file_size(path)), write_s, load_s,
              journal_load_s, resume_s, path.c_str(), journal.c_str());
  return 0;
}
