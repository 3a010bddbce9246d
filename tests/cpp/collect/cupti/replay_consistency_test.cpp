// User replay must see the same work in every pass.
#include <gtest/gtest.h>

#include "collect/cupti/replay_consistency.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

std::string error_of(const std::vector<std::string>& first, const std::vector<std::string>& now,
                     UserReplay replay) {
  try {
    check_same_as_first_pass(first, now, 2, RunId{1, 3, false}, replay);
  } catch (const ToolError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReplayConsistencyTest, IdenticalPassesPass) {
  EXPECT_EQ(error_of({"a", "b"}, {"a", "b"}, UserReplay::kApplication), "(no error)");
  EXPECT_EQ(error_of({}, {}, UserReplay::kRange), "(no error)");
}

TEST(ReplayConsistencyTest, DifferentLaunchNamesTheStepAndTheIdempotenceRule) {
  const auto msg = error_of({"kernel 'k1'", "kernel 'k2'"}, {"kernel 'k1'", "kernel 'k3'"},
                            UserReplay::kApplication);
  EXPECT_NE(msg.find("Replay pass 3 of config 1 run 3 did not repeat pass 1: at step 2 pass 1 had "
                     "kernel 'k2' but pass 3 had kernel 'k3'"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("metric_replay 'application' executes the benchmark once per counter pass"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("idempotent"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Use metric_replay 'kernel'"), std::string::npos) << msg;
}

TEST(ReplayConsistencyTest, CheckpointReplayNamesItsOwnRule) {
  const auto msg = error_of({"kernel 'k1'"}, {"kernel 'k1'", "kernel 'k1'"}, UserReplay::kCheckpoint);
  EXPECT_NE(msg.find("metric_replay 'checkpoint' executes the benchmark once per counter pass"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("device memory is restored between passes"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("idempotent"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Use metric_replay 'kernel' (CUPTI replays each kernel in isolation"),
            std::string::npos)
      << msg;
}

TEST(ReplayConsistencyTest, MissingStepInRangeMode) {
  const auto msg = error_of({"annotation 'a' with 2 kernel launch(es)"},
                            {"annotation 'a' with 1 kernel launch(es)"}, UserReplay::kRange);
  EXPECT_NE(msg.find("replay_mode 'range' executes the benchmark once per counter pass"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("Use replay_mode 'kernel'"), std::string::npos) << msg;
  const auto shorter = error_of({"x", "y"}, {"x"}, UserReplay::kRange);
  EXPECT_NE(shorter.find("pass 3 had nothing more (2 vs 1 steps)"), std::string::npos) << shorter;
}

}  // namespace
}  // namespace kscope::cupti
