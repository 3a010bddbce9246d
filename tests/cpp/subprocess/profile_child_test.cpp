// kscope::profile in a re-executed child: sessions other than the marked one return empty
// Results without running (and without needing a GPU).
#include <gtest/gtest.h>

#include <cstdlib>

#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

class ProfileAsChildTest : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("KSCOPE_CHILD_SESSION");
    ::unsetenv("KSCOPE_CHILD_REPORT");
  }
};

TEST_F(ProfileAsChildTest, OtherSessionReturnsEmptyResultsWithoutRunning) {
  ::setenv("KSCOPE_CHILD_SESSION", "other:0", 1);
  ::setenv("KSCOPE_CHILD_REPORT", (testing::scratch_dir("profile_child") + "c.json").c_str(), 1);
  bool called = false;
  Options opt;  // any tool: in a child, the marker decides before the tool is started
  opt.verbosity = Verbosity::kSilent;
  const auto r = profile("mine", configs({1, 2}), [&](const Config&) { called = true; }, opt);
  EXPECT_FALSE(called);
  EXPECT_TRUE(r.raw().empty());
  EXPECT_TRUE(r.processed().empty());
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.name(), "mine");
  EXPECT_EQ(r.configs().size(), 2u);
}

TEST_F(ProfileAsChildTest, CallIdsCountLikeInTheParent) {
  // The parent's second "twice" session is call 1; in the child, call 0 is skipped.
  ::setenv("KSCOPE_CHILD_SESSION", "twice:5", 1);
  ::setenv("KSCOPE_CHILD_REPORT", (testing::scratch_dir("profile_child_ids") + "c.json").c_str(), 1);
  Options opt;
  opt.verbosity = Verbosity::kSilent;
  const auto a = profile("twice", configs({1}), [](const Config&) {}, opt);
  const auto b = profile("twice", configs({1}), [](const Config&) {}, opt);
  EXPECT_EQ(a.id() + 1, b.id());
}

TEST_F(ProfileAsChildTest, MalformedMarkerIsAnError) {
  ::setenv("KSCOPE_CHILD_SESSION", "nonsense", 1);
  Options opt;
  opt.verbosity = Verbosity::kSilent;
  EXPECT_THROW((void)profile("s", configs({1}), [](const Config&) {}, opt), Error);
}

}  // namespace
}  // namespace kscope
