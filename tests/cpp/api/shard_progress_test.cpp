// ShardProgress (api/shard_progress.cpp): rank 0 counts the configs every rank's journal holds
// complete, finding the journals by one listing of the output directory, so that a sweep of
// a million ranks costs what its files cost.
#include "api/shard_progress.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/logger.hpp"
#include "sweep_fixture.hpp"

namespace kscope {
namespace {
namespace fs = std::filesystem;
using testing::run_sweep;
using testing::sweep_options;

// The journal of share `share` of the sweep, copied to `to`.
void shard_journal(const char* share, const std::string& to) {
  Options o = sweep_options("shard_progress_run");
  o.shard = share;
  (void)run_sweep(o);
  fs::copy_file(testing::journal_in(o.output_prefix), to, fs::copy_options::overwrite_existing);
}

std::size_t counted(const std::string& base_prefix, std::size_t ranks) {
  ShardSpec s;
  s.count = ranks;
  const Options o = sweep_options("shard_progress_log");
  return ShardProgress(Logger(o), s, base_prefix, "sweep", 0, testing::kSweepConfigs, o.runs).count();
}

TEST(ShardProgressTest, EveryRanksJournalIsCountedAndNothingElse) {
  const std::string dir = testing::scratch_dir("shard_progress");
  shard_journal("0/2", dir + "rank0-journal-sweep-0.jsonl");
  shard_journal("1/2", dir + "rank1-journal-sweep-0.jsonl");
  EXPECT_EQ(counted(dir, 2), testing::kSweepConfigs);
  EXPECT_EQ(counted(dir, 1'000'000), testing::kSweepConfigs);
  // Another session's, another prefix's and a rank beyond the sweep's are not its journals.
  fs::rename(dir + "rank1-journal-sweep-0.jsonl", dir + "rank2-journal-sweep-0.jsonl");
  EXPECT_EQ(counted(dir, 2), testing::kSweepConfigs / 2);
  fs::rename(dir + "rank2-journal-sweep-0.jsonl", dir + "rank1-journal-sweep-1.jsonl");
  EXPECT_EQ(counted(dir, 2), testing::kSweepConfigs / 2);
  fs::rename(dir + "rank1-journal-sweep-1.jsonl", dir + "b-rank1-journal-sweep-0.jsonl");
  EXPECT_EQ(counted(dir, 2), testing::kSweepConfigs / 2);
  EXPECT_EQ(counted(dir + "b-", 2), testing::kSweepConfigs / 2);
  EXPECT_EQ(counted(dir + "missing/", 2), 0u);
}

}  // namespace
}  // namespace kscope
