// The stopping rule of runs="auto" on synthetic sample streams: a stable stream reaches the
// target, a noisy one runs to max_runs, a slow one spends its time budget, a drifting one hits
// the noise floor, a stream without values stops at min_runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "core/stopping_rule.hpp"

namespace kscope {
namespace {

struct Outcome {
  StopReason reason;
  std::size_t runs;
  std::vector<std::size_t> batches;
};

// Feeds the rule value(i) for run i, each run taking `seconds_per_run`.
Outcome drive(StopCriteria c, const std::function<double(std::size_t)>& value,
              double seconds_per_run = 1e-5) {
  StoppingRule rule(c);
  std::vector<double> values;
  Outcome o{StopReason::kTarget, 0, {}};
  std::size_t batch = rule.first_batch();
  for (;;) {
    o.batches.push_back(batch);
    for (std::size_t i = 0; i < batch; ++i) values.push_back(value(values.size()));
    const auto stop = rule.after_batch({values}, values.size(),
                                       seconds_per_run * static_cast<double>(values.size()));
    if (stop) {
      o.reason = *stop;
      o.runs = values.size();
      return o;
    }
    batch = rule.next_batch();
  }
}

std::function<double(std::size_t)> normal(double mean, double sd, std::uint32_t seed) {
  auto gen = std::make_shared<std::mt19937>(seed);
  return [gen, mean, sd](std::size_t) {
    auto u = [&] { return (static_cast<double>((*gen)()) + 0.5) / 4294967296.0; };
    return mean + sd * std::sqrt(-2 * std::log(u())) * std::cos(6.283185307179586 * u());
  };
}

TEST(StoppingRuleTest, AStableStreamReachesTheTargetQuickly) {
  StopCriteria c;  // 0.5 %, 5 .. 10000 runs, 1 s
  const Outcome o = drive(c, normal(100, 0.5, 1));
  EXPECT_EQ(o.reason, StopReason::kTarget);
  EXPECT_GE(o.runs, 5u);
  EXPECT_LE(o.runs, 40u);  // (t * 0.5 % / 0.5 %)^2 ~ 4 to 8 runs, at most quadrupled
  EXPECT_EQ(o.batches.front(), 5u);
}

TEST(StoppingRuleTest, ANoisyStreamRunsToMaxRuns) {
  StopCriteria c;
  c.max_runs = 300;
  c.time_budget_s = 1e9;
  const Outcome o = drive(c, normal(100, 50, 2));
  EXPECT_EQ(o.reason, StopReason::kMaxRuns);
  EXPECT_EQ(o.runs, 300u);  // never beyond max_runs
}

TEST(StoppingRuleTest, ASlowStreamSpendsItsTimeBudget) {
  StopCriteria c;
  c.time_budget_s = 0.1;
  const Outcome o = drive(c, normal(100, 50, 3), 0.01);  // 10 ms a run
  EXPECT_EQ(o.reason, StopReason::kTimeBudget);
  EXPECT_GE(o.runs, 10u);
  EXPECT_LE(o.runs, 11u);  // batches are cut to the time left at the current pace
}

TEST(StoppingRuleTest, ADriftingStreamStopsAtTheNoiseFloor) {
  // A clock that keeps falling: the spread grows with the runs and the CI never shrinks.
  StopCriteria c;
  c.time_budget_s = 1e9;
  const auto noise = normal(0, 0.2, 4);
  const Outcome o = drive(c, [&](std::size_t i) { return 100 + 0.5 * static_cast<double>(i) + noise(i); });
  EXPECT_EQ(o.reason, StopReason::kNoiseFloor);
  EXPECT_LT(o.runs, 1000u);
}

TEST(StoppingRuleTest, IndependentNoiseIsNotANoiseFloor) {
  // 5 % noise needs ~ (2 * 5 / 0.5)^2 = 400 runs: the CI keeps shrinking on the way there.
  StopCriteria c;
  c.time_budget_s = 1e9;
  const Outcome o = drive(c, normal(100, 5, 5));
  EXPECT_EQ(o.reason, StopReason::kTarget);
  EXPECT_GT(o.runs, 300u);
  EXPECT_LT(o.runs, 1000u);
}

TEST(StoppingRuleTest, BatchesAtMostTripleTheRunsSoFar) {
  StopCriteria c;
  c.time_budget_s = 1e9;
  const Outcome o = drive(c, normal(100, 5, 6));
  std::size_t total = 0;
  bool grew_past_doubling = false;
  for (std::size_t b : o.batches) {
    if (total > 0) {
      EXPECT_LE(b, kMaxBatchGrowth * total);
      grew_past_doubling = grew_past_doubling || b > total;
    }
    total += b;
  }
  EXPECT_TRUE(grew_past_doubling);  // ~400 runs from 5: an early batch takes more than doubling
  EXPECT_LE(o.batches.size(), 7u);  // few flushes: ~log4(runs) + 1
}

TEST(StoppingRuleTest, NoValuesStopAtMinRuns) {
  StopCriteria c;
  const Outcome o = drive(c, [](std::size_t) { return std::nan(""); });
  EXPECT_EQ(o.reason, StopReason::kNoValues);
  EXPECT_EQ(o.runs, 5u);
}

TEST(StoppingRuleTest, EverySeriesMustReachTheTarget) {
  StoppingRule rule(StopCriteria{});
  const std::vector<double> tight = {100, 100.01, 99.99, 100, 100.02};
  const std::vector<double> loose = {100, 120, 80, 110, 90};
  EXPECT_EQ(rule.after_batch({tight}, 5, 0), StopReason::kTarget);
  EXPECT_EQ(rule.after_batch({tight, loose}, 5, 0), std::nullopt);
  EXPECT_GT(rule.rel_ci(), 0.1);
}

TEST(StoppingRuleTest, ReasonNames) {
  EXPECT_STREQ(to_string(StopReason::kTarget), "target");
  EXPECT_STREQ(to_string(StopReason::kMaxRuns), "max_runs");
  EXPECT_STREQ(to_string(StopReason::kTimeBudget), "time_budget");
  EXPECT_STREQ(to_string(StopReason::kNoiseFloor), "noise_floor");
  EXPECT_STREQ(to_string(StopReason::kNoValues), "no_values");
}

}  // namespace
}  // namespace kscope
