// check_sweep and plan_checked_sweep (api/sweep_setup.cpp), the set-up profile() and its CPU entry
// (profile_without_device) share: the CPU entry refuses what profile() refuses, with the same
// error, and puts a sharded process's files where profile() puts them. profile() is called here
// too: its checks come before any device work, so it throws the same error with or without a GPU.
#include "api/sweep_setup.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep_fixture.hpp"

namespace kscope {
namespace {
using testing::sweep_configs;
using testing::sweep_options;

// "<class>: <message>" of what `call` throws, or "(no error)".
std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const NotSupportedError& e) {
    return std::string("NotSupportedError: ") + e.what();
  } catch (const InvalidArgument& e) {
    return std::string("InvalidArgument: ") + e.what();
  } catch (const ConfigError& e) {
    return std::string("ConfigError: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
  return "(no error)";
}

// The errors of profile() and of the CPU entry for one call, that of profile() first.
std::pair<std::string, std::string> errors(std::string_view name,
                                           const std::vector<Config>& configs, const Benchmark& fn,
                                           const Options& o) {
  const std::string gpu = error_of([&] { (void)profile(name, configs, fn, o); });
  const std::string cpu = error_of([&] {
    (void)profile_without_device(name, configs, fn, o, std::make_unique<testing::FakeCollector>());
  });
  return {gpu, cpu};
}

void nothing(const Config&) {}
int first_call(const std::string&) { return 0; }
int counted = 0;
int count_call(const std::string&) { return counted++; }

TEST(SweepSetupTest, TheCpuEntryRefusesASessionNameAsProfileDoes) {
  const auto [gpu, cpu] = errors("a/b", sweep_configs(), nothing, sweep_options("setup_name"));
  EXPECT_EQ(gpu, "InvalidArgument: Invalid session name 'a/b': it is used in file names, so it "
                 "must be non-empty and contain no '/'.");
  EXPECT_EQ(cpu, gpu);
}

TEST(SweepSetupTest, TheCpuEntryRefusesConfigsOfUnequalLengthsAsProfileDoes) {
  const std::vector<Config> configs{Config({1}), Config({1, 2}), Config({3})};
  const auto [gpu, cpu] = errors("sweep", configs, nothing, sweep_options("setup_lengths"));
  EXPECT_EQ(gpu, "ConfigError: All configs must have the same number of arguments. Found "
                 "lengths: [1, 2, 1]");
  EXPECT_EQ(cpu, gpu);
}

TEST(SweepSetupTest, TheCpuEntryRefusesAnEmptyCallableAsProfileDoes) {
  const auto [gpu, cpu] = errors("sweep", sweep_configs(), Benchmark(), sweep_options("setup_fn"));
  EXPECT_EQ(gpu, "InvalidArgument: the benchmark callable is empty");
  EXPECT_EQ(cpu, gpu);
}

TEST(SweepSetupTest, TheCpuEntryRunsTheToolsOptionChecksAsProfileDoes) {
  Options o = sweep_options("setup_tool");
  o.duration_source = "events";  // cupti times regions with events only for the time metric
  o.metrics = {std::string(kTimeMetric), "sm__cycles_elapsed.avg"};
  const auto [gpu, cpu] = errors("sweep", sweep_configs(), nothing, o);
  EXPECT_EQ(gpu, "NotSupportedError: duration_source 'events' times each annotated region with a "
                 "pair of CUDA events and measures nothing else: it needs metrics "
                 "['gpu__time_duration.sum'] and replay_mode 'kernel'. Collect the other metrics "
                 "in a sweep of their own.");
  EXPECT_EQ(cpu, gpu);
}

TEST(SweepSetupTest, TheCpuEntryMeasuresTheMetricsByTheirStrippedNames) {
  Options o = sweep_options("setup_strip");
  o.metrics = {" " + std::string(kTimeMetric) + "\t"};
  const Results r = testing::run_sweep(o);
  EXPECT_EQ(r.options().metrics, std::vector<std::string>{kTimeMetric});
}

TEST(SweepSetupTest, ASweepIsCheckedWithItsConfigsIndexedAndItsShardResolved) {
  Options o = sweep_options("setup_checked");
  o.shard = "1/3";
  std::vector<Config> configs{Config({7}), Config({8})};
  const CheckedSweep s = check_sweep("sweep", configs, nothing, o, first_call);
  ASSERT_EQ(s.configs.size(), 2u);
  EXPECT_EQ(s.configs[0].index(), 0u);
  EXPECT_EQ(s.configs[1].index(), 1u);
  EXPECT_EQ(s.tool->name, "cupti");
  EXPECT_EQ(s.shard.index, 1u);
  EXPECT_EQ(s.shard.count, 3u);
}

TEST(SweepSetupTest, OnlyAnAcceptedCallTakesACallId) {
  counted = 5;
  EXPECT_THROW((void)check_sweep("a/b", sweep_configs(), nothing, sweep_options("setup_id"),
                                 count_call),
               InvalidArgument);
  EXPECT_EQ(counted, 5);
  const Options o = sweep_options("setup_id");
  EXPECT_EQ(check_sweep("sweep", sweep_configs(), nothing, o, count_call).id, 5);
  EXPECT_EQ(counted, 6);
}

TEST(SweepSetupTest, TheCpuEntrysRankWithoutAnOutputPrefixWritesUnderAFreshDirectory) {
  // profile()'s rule: a sharded process resolves the output prefix first (empty: a fresh
  // directory under TMPDIR), then names its files by its rank below it.
  const std::string tmp = testing::scratch_dir("setup_rank_tmp");
  const char* old = std::getenv("TMPDIR");
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  setenv("TMPDIR", tmp.substr(0, tmp.size() - 1).c_str(), 1);
  Options o = sweep_options("setup_rank");
  o.output_prefix = "";
  o.shard = "1/2";
  const std::string journal = testing::run_sweep(o).journal_path();
  if (saved) {
    setenv("TMPDIR", saved->c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_EQ(journal.rfind(tmp + "kscope_", 0), 0u) << journal;
  const std::string file = "/rank1-journal-sweep-0.jsonl";
  ASSERT_GT(journal.size(), file.size());
  EXPECT_EQ(journal.substr(journal.size() - file.size()), file);
}

TEST(SweepSetupTest, ARankOtherThanZeroLeavesTheProgressToRankZero) {
  Options o = sweep_options("setup_rank_progress");
  o.shard = "1/2";
  CheckedSweep s = check_sweep("sweep", sweep_configs(), nothing, o, first_call);
  const SweepPlan plan = plan_checked_sweep("sweep", &s);
  EXPECT_EQ(plan.base_prefix, o.output_prefix);
  EXPECT_EQ(s.options.output_prefix, o.output_prefix + "rank1-");
  EXPECT_TRUE(static_cast<bool>(s.options.on_progress));  // a display that shows nothing
}

TEST(SweepSetupTest, AnUnshardedSweepKeepsItsPrefixAndProgress) {
  const Options o = sweep_options("setup_unsharded");
  CheckedSweep s = check_sweep("sweep", sweep_configs(), nothing, o, first_call);
  const SweepPlan plan = plan_checked_sweep("sweep", &s);
  EXPECT_EQ(s.options.output_prefix, o.output_prefix);
  EXPECT_EQ(plan.base_prefix, "");
  EXPECT_FALSE(static_cast<bool>(s.options.on_progress));
  EXPECT_EQ(plan.to_measure.size(), testing::kSweepConfigs);
}

}  // namespace
}  // namespace kscope
