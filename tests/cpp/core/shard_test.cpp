// Options::shard: the rank from each launcher's environment, the option's own "i/n", and the
// share of configs each rank takes (interleaved, or balanced by earlier times).
#include "core/shard.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    const auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

TEST(ShardTest, EachLauncherIsRead) {
  const std::map<std::string, std::map<std::string, std::string>> cases = {
      {"torchrun", {{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}}},
      {"Slurm", {{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"}, {"SLURM_LOCALID", "1"}}},
      {"MPI", {{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "8"},
               {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}}},
  };
  for (const auto& [launcher, vars] : cases) {
    const ShardSpec s = resolve_shard("auto", env_of(vars));
    EXPECT_EQ(s.index, 3u) << launcher;
    EXPECT_EQ(s.count, 8u) << launcher;
    EXPECT_EQ(s.local_rank, 1) << launcher;
    EXPECT_EQ(s.describe(), "rank 3 of 8 (" + launcher + ")");
  }
  const ShardSpec pmi = resolve_shard("auto", env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}}));
  EXPECT_EQ(pmi.count, 2u);
  EXPECT_FALSE(pmi.local_rank.has_value());
}

TEST(ShardTest, TorchrunComesFirstAndNoLauncherIsTheWholeSweep) {
  const ShardSpec s = resolve_shard(
      "auto", env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "9"}}));
  EXPECT_EQ(s.source, "torchrun");
  EXPECT_FALSE(resolve_shard("auto", env_of({})).sharded());
  EXPECT_FALSE(resolve_shard("", env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}})).sharded());
}

TEST(ShardTest, ByHand) {
  const ShardSpec s = resolve_shard("2/5", env_of({}));
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 5u);
  for (const char* bad : {"5/5", "1", "a/b", "1/0", "-1/3", "1/3/4"}) {
    EXPECT_EQ(testing::error_text<InvalidArgument>([&] { (void)resolve_shard(bad, env_of({})); }),
              std::string("Invalid shard '") + bad +
                  "'. Expected 'auto' (the rank from torchrun, Slurm or MPI) or 'i/n' with 0 <= i "
                  "< n (this process measures share i of n).");
  }
}

TEST(ShardTest, MalformedLauncherVariablesAreNamed) {
  EXPECT_EQ(testing::error_text<InvalidArgument>([] {
              (void)resolve_shard("auto", env_of({{"SLURM_PROCID", "x"}, {"SLURM_NTASKS", "2"}}));
            }),
            "Invalid SLURM_PROCID='x' for shard 'auto' (set by Slurm): expected a non-negative "
            "integer.");
  EXPECT_EQ(testing::error_text<InvalidArgument>([] {
              (void)resolve_shard("auto", env_of({{"RANK", "4"}, {"WORLD_SIZE", "4"}}));
            }),
            "Invalid shard 'auto': RANK=4 is not below WORLD_SIZE=4 (set by torchrun).");
}

// RANK=1 without WORLD_SIZE measured every config as if unsharded (issue 38).
TEST(ShardTest, HalfOfAPairThatALauncherAlwaysSetsIsNamed) {
  EXPECT_EQ(testing::error_text<InvalidArgument>(
                [] { (void)resolve_shard("auto", env_of({{"RANK", "1"}})); }),
            "Invalid shard 'auto': RANK='1' is set but WORLD_SIZE is not (torchrun sets both). "
            "Set WORLD_SIZE, unset RANK to measure every config, or give shard 'i/n'.");
  EXPECT_EQ(testing::error_text<InvalidArgument>(
                [] { (void)resolve_shard("auto", env_of({{"OMPI_COMM_WORLD_SIZE", "4"}})); }),
            "Invalid shard 'auto': OMPI_COMM_WORLD_SIZE='4' is set but OMPI_COMM_WORLD_RANK is "
            "not (MPI sets both). Set OMPI_COMM_WORLD_RANK, unset OMPI_COMM_WORLD_SIZE to measure "
            "every config, or give shard 'i/n'.");
  // A complete pair of another launcher wins; a Slurm batch shell has SLURM_PROCID alone.
  EXPECT_EQ(resolve_shard("auto", env_of({{"RANK", "1"}, {"SLURM_PROCID", "1"},
                                          {"SLURM_NTASKS", "2"}})).source,
            "Slurm");
  EXPECT_FALSE(resolve_shard("auto", env_of({{"SLURM_PROCID", "0"}})).sharded());
  EXPECT_FALSE(resolve_shard("", env_of({{"RANK", "1"}})).sharded());
}

TEST(ShardTest, SharesAreInterleavedAndCoverTheSweepOnce) {
  ShardSpec s;
  s.count = 3;
  std::vector<int> seen(10, 0);
  for (std::size_t r = 0; r < 3; ++r) {
    s.index = r;
    for (auto c : shard_configs(10, s, {})) ++seen[c];
  }
  EXPECT_EQ(seen, std::vector<int>(10, 1));
  s.index = 1;
  EXPECT_EQ(shard_configs(10, s, {}), (std::vector<std::size_t>{1, 4, 7}));
}

TEST(ShardTest, BalancedSharesPutTheLongestApart) {
  ShardSpec s;
  s.count = 2;
  const std::vector<double> w = {10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};  // one long config
  s.index = 0;
  EXPECT_EQ(shard_configs(w.size(), s, w), (std::vector<std::size_t>{0}));
  s.index = 1;
  EXPECT_EQ(shard_configs(w.size(), s, w).size(), 10u);
}

// A scan of every rank's load per config took configs x ranks steps (2 * 10^11 here).
TEST(ShardTest, BalancingOverAMillionRanksGivesEachRankItsOwnConfig) {
  ShardSpec s;
  s.count = 1'000'000;
  std::vector<double> w(200'000, 1.0);
  w[7] = 2.0;  // the longest goes first, to rank 0
  s.index = 0;
  EXPECT_EQ(shard_configs(w.size(), s, w), (std::vector<std::size_t>{7}));
  s.index = 1;
  EXPECT_EQ(shard_configs(w.size(), s, w), (std::vector<std::size_t>{0}));
  s.index = 199'999;
  EXPECT_EQ(shard_configs(w.size(), s, w), (std::vector<std::size_t>{199'999}));
  s.index = 200'000;
  EXPECT_TRUE(shard_configs(w.size(), s, w).empty());
}

}  // namespace
}  // namespace kscope
