// The ncu tool with the default re-execution command (/proc/self/exe + /proc/self/cmdline): this
// binary has a single test, so re-running it as it was started runs that test again.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "collect/ncu/ncu_locator.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"
#include "test_kernels.hpp"

namespace kscope {
namespace {

TEST(NcuSelfReexecGpuTest, DefaultCommandReRunsThisProgram) {
  try {
    (void)ncu::locate_ncu();
  } catch (const ToolError& e) {
    GTEST_SKIP() << "needs ncu: " << e.what();
  }
  const bool child = std::getenv("KSCOPE_CHILD_SESSION") != nullptr;
  Options o;
  o.tool = "ncu";
  o.runs = 2;
  o.clock_control = "none";
  o.verbosity = Verbosity::kSilent;
  o.output_prefix = child ? std::string(KSCOPE_BINARY_DIR) + "/test-output/ncu_gpu_self/"
                          : testing::scratch_dir("ncu_gpu_self");
  const auto r = profile("ncu_self", configs({30000, 60000}, "ns"), [](const Config& c) {
    Annotation a("spin");
    testing::launch_spin(c.get<long long>("ns"));
  }, o);
  ASSERT_EQ(r.raw().size(), 4u);
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_EQ(r.processed()[1].unit, std::optional<std::string>("ns"));  // not ncu's "us"
  EXPECT_NEAR(r.processed()[1].avg, 60000, 6000) << "the spin kernel of config ns=60000";
}

}  // namespace
}  // namespace kscope
