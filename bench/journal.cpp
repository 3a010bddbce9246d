// The journal's "runs" line for a made-up session of one annotated kernel per run (a run log, a
// kernel record and six host phases per run: made_up_session.hpp), on the CPU: what
// bench/README.md's "Journal" describes.
//
//   kscope_bench_journal [configs runs repeats]
//
// Defaults 100 10 20. Prints the best and the median time from append() to finish() (the copy
// handed to the journal's thread, the encoding and the write of one line), and the same for
// records the line shares with the session (its last line: Session::Output::records), not copied.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "made_up_session.hpp"
#include "report/journal.hpp"

int main(int argc, char** argv) {
  using namespace kscope;
  std::vector<std::size_t> shape{100, 10, 20};
  for (int i = 1; i < argc && i <= 3; ++i) {
    shape[static_cast<std::size_t>(i - 1)] = std::max(1UL, std::strtoul(argv[i], nullptr, 10));
  }
  Session::Output s = bench::made_up_session({kTimeMetric}, shape[0], shape[1]);
  Results::Data header;
  header.name = "journal";
  const std::string path = "/tmp/kscope_bench_journal.jsonl";
  // A copy: the records of every write but a session's last. Shared: the session's own, as its
  // last line shares them (RecordStore::share).
  for (const bool in_place : {false, true}) {
    std::vector<double> ms;
    for (std::size_t i = 0; i < shape[2]; ++i) {
      report::JournalWriter journal(path, header);
      const auto t0 = std::chrono::steady_clock::now();
      journal.add_phases(s.phases);
      journal.append(s.runs, in_place ? s.records.share(0)
                                      : RecordSlice::copy_of(s.records.all()));
      journal.close("");
      journal.finish();
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("journal line of %zu configs x %zu runs, %s: best %.3f ms, median %.3f ms (%zu "
                "repeats)\n",
                shape[0], shape[1], in_place ? "append (shared, no copy)" : "append (a copy)",
                ms.front(), ms[ms.size() / 2], ms.size());
  }
  std::remove(path.c_str());
  return 0;
}
