#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "../core/records.hpp"
#include "kscope/errors.hpp"
#include "report/journal.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {
using testing::kernel;
using testing::run_log;

Results::Data header() {
  Results::Data d;
  d.name = "j";
  d.options.runs = 2;
  d.configs = configs({10, 20}, "n");
  d.parameters = {"n"};
  d.metadata.gpu = "NVIDIA H200";
  return d;
}

std::string write_journal(const std::string& dir, bool close, const std::string& error = "") {
  const std::string path = dir + "journal-j-0.jsonl";
  report::JournalWriter w(path, header());
  w.append({run_log(0, 0, {"k"}), run_log(0, 1, {"k"})},
           {kernel("k", "vadd", 0, 0, 100, 1), kernel("k", "vadd", 0, 1, 110, 2)});
  w.append({run_log(1, 0, {"k"})}, {kernel("k", "vadd", 1, 0, 200, 3)});
  if (close) w.close(error);
  return path;
}

TEST(JournalTest, CompleteJournalLoadsBackAsResults) {
  const std::string path = write_journal(testing::scratch_dir("journal_complete"), true);
  const Results r = Results::load(path);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.name(), "j");
  EXPECT_EQ(r.journal_path(), path);
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_DOUBLE_EQ(r.processed()[0].avg, 105);
  EXPECT_EQ(r.processed()[1].num_runs, 1u);
}

TEST(JournalTest, UnfinishedJournalLoadsWhatWasMeasured) {
  const std::string dir = testing::scratch_dir("journal_unfinished");
  const std::string path = write_journal(dir, false);
  // Simulate a crash in the middle of writing a line.
  std::ofstream(path, std::ios::app) << "{\"kind\": \"runs\", \"runs\": [{\"conf";
  const Results r = Results::load(path);
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.processed().size(), 2u);
}

TEST(JournalTest, JournalOfAFailedSessionIsIncomplete) {
  const Results r = Results::load(write_journal(testing::scratch_dir("journal_failed"), true, "boom"));
  EXPECT_FALSE(r.complete());
}

TEST(JournalTest, EveryAppendIsOnDiskImmediately) {
  const std::string dir = testing::scratch_dir("journal_durable");
  const std::string path = dir + "journal-j-0.jsonl";
  report::JournalWriter w(path, header());
  w.append({run_log(0, 0, {"k"})}, {kernel("k", "vadd", 0, 0, 100, 1)});
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 2);
}

TEST(JournalTest, UnwritablePathIsAClearError) {
  try {
    report::JournalWriter w("/nonexistent-dir/x.jsonl", header());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write the journal '/nonexistent-dir/x.jsonl'"),
              std::string::npos);
  }
}

TEST(JournalTest, NotAJournal) {
  const std::string dir = testing::scratch_dir("journal_not");
  std::ofstream(dir + "x.jsonl") << "{\"kind\": \"kscope.journal\"}\n";
  EXPECT_THROW((void)Results::load(dir + "x.jsonl"), std::exception);
}

}  // namespace
}  // namespace kscope
