// Which CUPTI modes a metric set is collected with.
#include "collect/cupti/collection_plan.hpp"

#include <gtest/gtest.h>

#include "support/error_text.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

using kscope::testing::error_text;

TEST(CollectionPlanTest, OnePassSetNeedsNoReplayAndSpansRuns) {
  for (const char* replay : {"checkpoint", "application", "kernel"}) {
    const auto p = plan_collection("kernel", replay, 1);
    EXPECT_FALSE(p.user_range);
    EXPECT_FALSE(p.kernel_replay);
    EXPECT_EQ(p.scope, SessionScope::kSpan);
    EXPECT_EQ(p.passes_per_run, 1);
    EXPECT_NE(p.describe().find("no replay"), std::string::npos) << p.describe();
    EXPECT_NE(p.describe().find("spanning many measured runs"), std::string::npos) << p.describe();
    EXPECT_NE(p.describe().find("KSCOPE_CUPTI_BATCH=annotation"), std::string::npos)
        << p.describe();
  }
  EXPECT_EQ(plan_collection("kernel", "kernel", 1, BatchOverride::kSpan).scope,
            SessionScope::kSpan);
}

TEST(CollectionPlanTest, BatchOverrideGivesSessionsPerAnnotation) {
  const auto a = plan_collection("kernel", "kernel", 1, BatchOverride::kAnnotation);
  EXPECT_EQ(a.scope, SessionScope::kAnnotation);
  EXPECT_FALSE(a.decode_per_run);
  EXPECT_FALSE(a.kernel_replay);
  EXPECT_NE(a.describe().find("a session per annotation (decoded per annotation)"),
            std::string::npos)
      << a.describe();
  const auto r = plan_collection("kernel", "kernel", 1, BatchOverride::kRun);
  EXPECT_EQ(r.scope, SessionScope::kAnnotation);
  EXPECT_TRUE(r.decode_per_run);
  EXPECT_NE(r.describe().find("decoded once per run"), std::string::npos) << r.describe();
}

TEST(CollectionPlanTest, KernelReplayNeverSpansRuns) {
  // A span would replay (and save/restore memory for) every kernel outside annotations too.
  for (auto batch : {BatchOverride::kNone, BatchOverride::kSpan, BatchOverride::kAnnotation}) {
    const auto p = plan_collection("kernel", "kernel", 8, batch);
    EXPECT_EQ(p.scope, SessionScope::kAnnotation);
    EXPECT_FALSE(p.decode_per_run);
  }
  EXPECT_TRUE(plan_collection("kernel", "kernel", 8, BatchOverride::kRun).decode_per_run);
}

TEST(CollectionPlanTest, BatchOverrideParsing) {
  EXPECT_EQ(parse_batch_override(nullptr), BatchOverride::kNone);
  EXPECT_EQ(parse_batch_override(""), BatchOverride::kNone);
  EXPECT_EQ(parse_batch_override("annotation"), BatchOverride::kAnnotation);
  EXPECT_EQ(parse_batch_override("run"), BatchOverride::kRun);
  EXPECT_EQ(parse_batch_override("span"), BatchOverride::kSpan);
  const auto msg = error_text<InvalidArgument>([] { (void)parse_batch_override("Run"); });
  EXPECT_NE(msg.find("Invalid KSCOPE_CUPTI_BATCH 'Run'. Expected 'span'"), std::string::npos)
      << msg;
}

TEST(CollectionPlanTest, MultiPassDefaultsToCheckpointReplayOfWholeRuns) {
  const auto p = plan_collection("kernel", "checkpoint", 8);
  EXPECT_FALSE(p.user_range);
  EXPECT_FALSE(p.kernel_replay);  // user replay: kscope schedules the passes
  EXPECT_TRUE(p.restore_memory);
  EXPECT_EQ(p.scope, SessionScope::kRun);
  EXPECT_EQ(p.passes_per_run, 8);
  EXPECT_NE(p.describe().find("checkpoint replay"), std::string::npos) << p.describe();
  EXPECT_NE(p.describe().find("executed 8 time(s) with device memory saved before the first and "
                              "restored before every later execution"),
            std::string::npos)
      << p.describe();
  // A batch override only changes one-pass sets and CUPTI's kernel replay.
  EXPECT_EQ(plan_collection("kernel", "checkpoint", 8, BatchOverride::kAnnotation).scope,
            SessionScope::kRun);
}

TEST(CollectionPlanTest, CuptiKernelReplayIsAChoice) {
  const auto p = plan_collection("kernel", "kernel", 8);
  EXPECT_FALSE(p.user_range);
  EXPECT_TRUE(p.kernel_replay);
  EXPECT_FALSE(p.restore_memory);  // CUPTI saves and restores per kernel itself
  EXPECT_EQ(p.scope, SessionScope::kAnnotation);
  EXPECT_EQ(p.passes_per_run, 1);
  EXPECT_NE(p.describe().find("saved and restored"), std::string::npos) << p.describe();
  EXPECT_NE(p.describe().find("only the first pass runs after kscope's cache flush"),
            std::string::npos)
      << p.describe();
}

TEST(CollectionPlanTest, ApplicationReplayReExecutesRuns) {
  const auto p = plan_collection("kernel", "application", 8);
  EXPECT_FALSE(p.user_range);
  EXPECT_FALSE(p.kernel_replay);
  EXPECT_EQ(p.scope, SessionScope::kRun);
  EXPECT_EQ(p.passes_per_run, 8);
  EXPECT_FALSE(p.restore_memory);
  EXPECT_NE(p.describe().find("executed 8 time(s) without saving or restoring memory"),
            std::string::npos)
      << p.describe();
}

TEST(CollectionPlanTest, RangeReplayUsesUserRangesOverRuns) {
  for (std::size_t passes : {1u, 8u}) {
    const auto p = plan_collection("range", "checkpoint", passes);
    EXPECT_TRUE(p.user_range);
    EXPECT_FALSE(p.kernel_replay);  // UserRange needs UserReplay
    EXPECT_EQ(p.scope, SessionScope::kRun);
    EXPECT_EQ(p.passes_per_run, static_cast<int>(passes));
    EXPECT_EQ(p.restore_memory, passes > 1);  // one pass: nothing to restore
  }
  EXPECT_FALSE(plan_collection("range", "application", 8).restore_memory);
}

}  // namespace
}  // namespace kscope::cupti
