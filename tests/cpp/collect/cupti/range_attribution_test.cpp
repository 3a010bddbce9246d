// Decoded ranges -> KernelRecords: auto ranges by launch order, user ranges by name, and the
// errors when they cannot be matched.
#include <gtest/gtest.h>

#include "collect/cupti/range_attribution.hpp"
#include "support/error_text.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

const MetricColumns kColumns{{"gpu__time_duration.sum", "dram__bytes_read.sum"}, {"ns", "byte"}};
const SessionPlace kPlace{RunId{2, 1, false}, 0, "annotation 'a'"};

DecodedRange range(double t, double bytes, std::string name = "") {
  return {std::move(name), {t, bytes}};
}

using kscope::testing::error_text;

TEST(RangeAttributionTest, KthAutoRangeBelongsToKthLaunch) {
  const RunId run{2, 1, false};
  const std::vector<ProfiledLaunch> launches = {{"a", "_Z4vaddPKfS0_Pfi", false, 7, run},
                                                {"", "_Z4initPf", false, 8, run},
                                                {"a", "_Z5scalePf", false, 9, run}};
  const auto records =
      attribute_auto_ranges(launches, {range(10, 100), range(20, 200), range(30, 300)}, 0, kColumns, kPlace);
  ASSERT_EQ(records.size(), 2u);  // the launch outside annotations is dropped
  EXPECT_EQ(records[0].annotation, "a");
  EXPECT_EQ(records[0].kernel, "vadd");
  EXPECT_EQ(records[0].mangled, "_Z4vaddPKfS0_Pfi");
  EXPECT_EQ(records[0].sequence, 7u);
  EXPECT_EQ(records[0].run, (RunId{2, 1, false}));
  ASSERT_EQ(records[0].metrics.size(), 2u);
  EXPECT_EQ(records[0].metrics[0].metric, "gpu__time_duration.sum");
  EXPECT_EQ(records[0].metrics[0].value, 10);
  EXPECT_EQ(records[0].metrics[0].unit, "ns");
  EXPECT_EQ(records[0].metrics[1].value, 100);
  EXPECT_EQ(records[0].metrics[1].unit, "byte");
  EXPECT_EQ(records[1].kernel, "scale");
  EXPECT_EQ(records[1].metrics[1].value, 300);
}

TEST(RangeAttributionTest, BatchOverSeveralRunsAttributesEachLaunchToItsRun) {
  // A spanning session: the cache flush before each run and a warm-up run's kernel are profiled
  // (they take ranges) but carry no annotation.
  const RunId r0{0, 0, false}, warm{1, 0, true}, r1{1, 0, false};
  const std::vector<ProfiledLaunch> launches = {
      {"", "_Z5flushv", false, 1, r0},   {"k", "_Z4readv", false, 2, r0},
      {"", "_Z5flushv", false, 3, r0},   {"", "_Z4readv", false, 4, warm},
      {"", "_Z5flushv", false, 5, warm}, {"k", "_Z4readv", false, 6, r1}};
  std::vector<DecodedRange> ranges;
  for (int i = 0; i < 6; ++i) ranges.push_back(range(i, 10 * i));
  const SessionPlace place{r0, 0, "a batch of measured runs", r1};
  const auto records = attribute_auto_ranges(launches, ranges, 0, kColumns, place);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].run, r0);
  EXPECT_EQ(records[0].metrics[0].value, 1);
  EXPECT_EQ(records[1].run, r1);
  EXPECT_EQ(records[1].metrics[0].value, 5);
  const auto msg = error_text<ToolError>(
      [&] { (void)attribute_auto_ranges(launches, {range(1, 1)}, 0, kColumns, place); });
  EXPECT_NE(msg.find("seen in a batch of measured runs (config 0 run 0 to config 1 run 0)"),
            std::string::npos)
      << msg;
}

TEST(RangeAttributionTest, MoreLaunchesThanTheProfilerHoldsNamesTheCapacityAndTheFix) {
  SessionPlace place = kPlace;
  place.capacity = 2;
  const std::vector<ProfiledLaunch> launches = {
      {"a", "_Z1kv", false, 1}, {"a", "_Z1kv", false, 2}, {"a", "_Z1kv", false, 3}};
  const auto msg = error_text<ToolError>([&] {
    (void)attribute_auto_ranges(launches, {range(1, 1), range(2, 2), range(3, 3), range(4, 4)}, 0,
                                kColumns, place);
  });
  EXPECT_NE(msg.find("set up for 2 ranges per batch, but 3 kernel launch(es) were profiled in "
                     "annotation 'a' (config 2 run 1)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("give the sweep warmup_runs=1"), std::string::npos) << msg;
}

TEST(RangeAttributionTest, RangeCountMismatchIsAnError) {
  const auto msg = error_text<ToolError>([] {
    (void)attribute_auto_ranges({{"a", "_Z1kv", false, 1}}, {range(1, 1), range(2, 2)}, 0, kColumns, kPlace);
  });
  EXPECT_NE(msg.find("produced 2 auto range(s) for the 1 kernel launch(es) seen in annotation 'a' "
                     "(config 2 run 1)"),
            std::string::npos)
      << msg;
}

TEST(RangeAttributionTest, DroppedRangesAskForAWarmUpRun) {
  const auto msg = error_text<ToolError>([] {
    (void)attribute_auto_ranges({{"a", "_Z1kv", false, 1}, {"a", "_Z1kv", false, 2}}, {range(1, 1)}, 1,
                                kColumns, kPlace);
  });
  EXPECT_NE(msg.find("dropped 1 range(s) of annotation 'a' (config 2 run 1)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("warmup_runs=1"), std::string::npos) << msg;
}

TEST(RangeAttributionTest, GraphLaunchesNeedRangeReplayOrNcu) {
  const auto msg = error_text<NotSupportedError>([] {
    (void)attribute_auto_ranges({{"a", "", true, 1}}, {range(1, 1)}, 0, kColumns, kPlace);
  });
  EXPECT_NE(msg.find("A CUDA graph was launched in annotation 'a' (config 0 run 0)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("replay_mode 'range'"), std::string::npos) << msg;
}

TEST(RangeAttributionTest, GraphLaunchOutsideAnnotationsNamesTheBatchOverride) {
  const auto msg = error_text<NotSupportedError>([] {
    (void)attribute_auto_ranges(
        {{"", "", true, 1}}, {range(1, 1)}, 0, kColumns,
        {RunId{0, 0, false}, 0, "a batch of measured runs", RunId{3, 1, false}});
  });
  EXPECT_NE(msg.find("A CUDA graph was launched outside the measured annotations of a batch of "
                     "measured runs (config 0 run 0 to config 3 run 1)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("KSCOPE_CUPTI_BATCH=annotation"), std::string::npos) << msg;
}

TEST(RangeAttributionTest, UnknownSymbolStillAttributed) {
  const auto records = attribute_auto_ranges({{"a", "", false, 1}}, {range(1, 2)}, 0, kColumns, kPlace);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].kernel, "unknown");
}

TEST(RangeAttributionTest, UserRangesMatchByNameInPushOrder) {
  const auto records = attribute_user_ranges(
      {"first", "second"}, {range(5, 50, "second"), range(4, 40, "first")}, 0, kColumns, kPlace);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].annotation, "first");
  EXPECT_EQ(records[0].kernel, "range");
  EXPECT_EQ(records[0].metrics[1].value, 40);
  EXPECT_EQ(records[0].sequence, 0u);
  EXPECT_EQ(records[1].annotation, "second");
  EXPECT_EQ(records[1].metrics[0].value, 5);
}

TEST(RangeAttributionTest, MissingUserRangeIsAnError) {
  const auto msg = error_text<ToolError>(
      [] { (void)attribute_user_ranges({"first"}, {range(1, 1, "other")}, 0, kColumns, kPlace); });
  EXPECT_NE(msg.find("no range for annotation 'first'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'other'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace kscope::cupti
