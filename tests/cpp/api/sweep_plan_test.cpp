// plan_sweep (api/sweep_plan.cpp): a process measures its share of the configs (Options::shard)
// minus what a resumed journal holds; sharded processes write under a rank prefix.
#include "api/sweep_plan.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/logger.hpp"
#include "sweep_fixture.hpp"

namespace kscope {
namespace {
using testing::sweep_configs;
using testing::sweep_options;

std::vector<std::size_t> indices(const std::vector<Config>& configs) {
  std::vector<std::size_t> out;
  for (const auto& c : configs) out.push_back(c.index());
  return out;
}

TEST(SweepPlanTest, WithoutShardOrResumeEveryConfigIsMeasured) {
  const Options o = sweep_options("plan_all");
  const SweepPlan plan = plan_sweep("sweep", sweep_configs(), o, Logger(o), "out/");
  EXPECT_FALSE(plan.shard.sharded());
  EXPECT_EQ(indices(plan.to_measure), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_FALSE(plan.resume.has_value());
  EXPECT_EQ(plan.base_prefix, "out/");
  EXPECT_EQ(shard_prefix("out/", plan.shard), "out/");
}

TEST(SweepPlanTest, AShareIsInterleavedAndWritesUnderItsRank) {
  Options o = sweep_options("plan_share");
  o.shard = "1/3";
  const SweepPlan plan = plan_sweep("sweep", sweep_configs(), o, Logger(o));
  EXPECT_EQ(plan.shard.index, 1u);
  EXPECT_EQ(plan.shard.count, 3u);
  EXPECT_EQ(indices(plan.to_measure), (std::vector<std::size_t>{1, 4}));
  EXPECT_EQ(shard_prefix("out/", plan.shard), "out/rank1-");
}

TEST(SweepPlanTest, AResumedShareMeasuresWhatItsJournalLacks) {
  Options first = sweep_options("plan_resume_first");
  first.shard = "0/2";
  EXPECT_THROW((void)testing::run_sweep(first, 4), std::runtime_error);  // configs 0, 2 done
  Options o = sweep_options("plan_resume");
  o.shard = "0/2";
  o.resume = testing::journal_in(first.output_prefix);
  EXPECT_NE(o.resume.find("rank0-journal-sweep-"), std::string::npos) << o.resume;
  const SweepPlan plan = plan_sweep("sweep", sweep_configs(), o, Logger(o));
  ASSERT_TRUE(plan.resume.has_value());
  EXPECT_EQ(indices(plan.to_measure), (std::vector<std::size_t>{4}));
}

TEST(SweepPlanTest, AMalformedShardIsRefused) {
  Options o = sweep_options("plan_bad");
  o.shard = "3/3";
  try {
    (void)plan_sweep("sweep", sweep_configs(), o, Logger(o));
    FAIL() << "no throw";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid shard '3/3'. Expected 'auto' (the rank from torchrun, Slurm or MPI) or "
                 "'i/n' with 0 <= i < n (this process measures share i of n).");
  }
}

}  // namespace
}  // namespace kscope
