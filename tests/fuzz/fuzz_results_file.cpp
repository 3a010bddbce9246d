// Fuzz target: a saved result (JSON) or journal (JSON Lines) through Results::load, then the
// table, the JSON and the CSV writers on what loaded. A result the streamed reader reads must read
// alike as a tree (report/result_reader.hpp), and a journal read line by line fast must read as
// with every line a tree (report/journal.hpp), errors alike; a difference escapes as
// std::logic_error.
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "fuzz_driver.hpp"
#include "kscope/errors.hpp"
#include "kscope/results.hpp"
#include "report/journal.hpp"
#include "report/result_reader.hpp"

namespace {

// What reading `path` as a journal gives: its JSON, or the error's text.
std::string journal_outcome(const std::string& path, bool as_trees) {
  try {
    return kscope::report::load_journal(path, as_trees).to_json();
  } catch (const kscope::Error& e) {
    return std::string("error: ") + e.what();
  }
}

// `r` without what kProcessedTable skips.
std::string to_json_without_skipped(const kscope::Results& r) {
  kscope::Results::Data d = r.data();
  d.raw.clear();
  d.telemetry.clear();
  d.timeline = {};
  return kscope::Results(std::move(d)).to_json();
}

void compare_journal_reads(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  if (first.find("\"kscope.journal\"") == std::string::npos) return;
  if (journal_outcome(path, false) != journal_outcome(path, true)) {
    throw std::logic_error("the journal reads fast and as trees differently");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Results::load reads a path: one scratch file per process.
  static const std::string path = "/tmp/kscope-fuzz-results-" + std::to_string(getpid()) + ".jsonl";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  compare_journal_reads(path);
  try {
    const kscope::Results r = kscope::Results::load(path);
    std::ostringstream sink;
    r.print(sink);
    const std::string json = r.to_json();
    if (kscope::report::read_result_streamed(path, {})) {
      if (kscope::Results(kscope::report::read_result_tree(path)).to_json() != json) {
        throw std::logic_error("the streamed and the tree reads of a result differ");
      }
      // What a command reads of it, the rest skipped unread: the same rows.
      const auto some = kscope::report::read_result_streamed(path, kscope::report::kProcessedTable);
      if (!some || !(kscope::Results(*some).to_json() == to_json_without_skipped(r))) {
        throw std::logic_error("the processed table read alone differs");
      }
    }
  } catch (const kscope::Error&) {
  }
  return 0;
}
