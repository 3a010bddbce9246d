// Which CUPTI modes a metric set is collected with.
#include <gtest/gtest.h>

#include "collect/cupti/collection_plan.hpp"

namespace kscope::cupti {
namespace {

TEST(CollectionPlanTest, OnePassSetNeedsNoReplay) {
  for (const char* replay : {"kernel", "application"}) {
    const auto p = plan_collection("kernel", replay, 1);
    EXPECT_FALSE(p.user_range);
    EXPECT_FALSE(p.kernel_replay);
    EXPECT_EQ(p.scope, SessionScope::kAnnotation);
    EXPECT_EQ(p.passes_per_run, 1);
    EXPECT_NE(p.describe().find("no replay"), std::string::npos) << p.describe();
  }
}

TEST(CollectionPlanTest, MultiPassDefaultsToKernelReplay) {
  const auto p = plan_collection("kernel", "kernel", 8);
  EXPECT_FALSE(p.user_range);
  EXPECT_TRUE(p.kernel_replay);
  EXPECT_EQ(p.scope, SessionScope::kAnnotation);
  EXPECT_EQ(p.passes_per_run, 1);
  EXPECT_NE(p.describe().find("saved and restored"), std::string::npos) << p.describe();
}

TEST(CollectionPlanTest, ApplicationReplayReExecutesRuns) {
  const auto p = plan_collection("kernel", "application", 8);
  EXPECT_FALSE(p.user_range);
  EXPECT_FALSE(p.kernel_replay);
  EXPECT_EQ(p.scope, SessionScope::kRun);
  EXPECT_EQ(p.passes_per_run, 8);
  EXPECT_NE(p.describe().find("executed 8 time(s)"), std::string::npos) << p.describe();
}

TEST(CollectionPlanTest, RangeReplayUsesUserRangesOverRuns) {
  for (std::size_t passes : {1u, 8u}) {
    const auto p = plan_collection("range", "kernel", passes);
    EXPECT_TRUE(p.user_range);
    EXPECT_FALSE(p.kernel_replay);  // UserRange needs UserReplay
    EXPECT_EQ(p.scope, SessionScope::kRun);
    EXPECT_EQ(p.passes_per_run, static_cast<int>(passes));
  }
}

}  // namespace
}  // namespace kscope::cupti
