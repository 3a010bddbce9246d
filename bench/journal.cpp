// The journal's "runs" line for a made-up session of one annotated kernel per run (a run log, a
// kernel record and six host phases per run, as the cupti tool and the Session hand them over),
// on the CPU: what bench/README.md's "Journal" describes.
//
//   kscope_bench_journal [runs repeats]
//
// Defaults 1000 20. Prints the best and the median time from append() to finish() (the copy
// handed to the journal's thread, the encoding and the write of one line).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "report/journal.hpp"

namespace {

using namespace kscope;

struct Session {
  std::vector<RunLog> runs;
  std::vector<KernelRecord> records;
  std::vector<PhaseSpan> phases;
};

Session made_up(std::size_t n) {
  static const char* kPhases[] = {"environment before", "tool before", "benchmark",
                                  "synchronize",        "tool after",  "environment after"};
  Session s;
  for (std::size_t i = 0; i < n; ++i) {
    RunLog log;
    log.run = {i / 10, i % 10, false};
    log.entered = {"spin"};
    KernelRecord k;
    k.annotation = "spin";
    k.kernel = "spin_kernel";
    k.mangled = "_Z11spin_kernelx";
    k.run = log.run;
    k.sequence = i;
    k.start_ns = 31585808074145 + 1000 * static_cast<std::int64_t>(i);
    k.end_ns = *k.start_ns + 5632;
    k.stream = 7;
    k.metrics.push_back({kTimeMetric, 5632.0, std::string("ns")});
    std::int64_t t = 31585807990040 + 1000 * static_cast<std::int64_t>(i);
    for (const char* phase : kPhases) {
      PhaseSpan p;
      p.phase = phase;
      p.config = log.run.config;
      p.run = log.run.run;
      p.start_ns = t;
      p.end_ns = t += 150;
      s.phases.push_back(std::move(p));
    }
    s.runs.push_back(std::move(log));
    s.records.push_back(std::move(k));
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::max(1L, std::atol(argv[1])) : 1000;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  const Session s = made_up(n);
  Results::Data header;
  header.name = "journal";
  const std::string path = "/tmp/kscope_bench_journal.jsonl";
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    report::JournalWriter journal(path, header);
    const auto t0 = std::chrono::steady_clock::now();
    journal.add_phases(s.phases);
    journal.append(s.runs, s.records);
    journal.close("");
    journal.finish();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::remove(path.c_str());
  std::sort(ms.begin(), ms.end());
  std::printf("journal line of %zu runs: best %.3f ms, median %.3f ms (%d repeats)\n", n, ms.front(),
              ms[ms.size() / 2], repeats);
  return 0;
}
