#include "collect/ncu/ncu_version.hpp"

#include <gtest/gtest.h>

#include "kscope/errors.hpp"
#include "ncu_test_support.hpp"

namespace kscope::ncu {
namespace {

TEST(NcuVersionTest, ParsesNcuOutput) {
  const auto v = parse_ncu_version(
      "NVIDIA (R) Nsight Compute Command Line Profiler\nCopyright (c) 2018-2025 NVIDIA "
      "Corporation\nVersion 2025.3.1.0 (build 36398880) (public-release)\n");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v, (NcuVersion{2025, 3, 1, 0}));
  EXPECT_EQ(v->to_string(), "2025.3.1.0");
  EXPECT_EQ(parse_ncu_version("Version 2026.2.1"), (NcuVersion{2026, 2, 1, 0}));
  EXPECT_FALSE(parse_ncu_version("ncu: command not found"));
}

TEST(NcuVersionTest, Orders) {
  EXPECT_LT((NcuVersion{2025, 3, 1, 0}), kNcuAttachVersion);
  EXPECT_FALSE(kNcuAttachVersion < (NcuVersion{2026, 2, 1, 0}));
  EXPECT_LT((NcuVersion{2026, 2, 0, 9}), (NcuVersion{2026, 2, 1, 0}));
}

TEST(NcuVersionTest, QueriesTheExecutable) {
  testing::ScopedEnv v("FAKE_NCU_VERSION", "2024.1.1.0");
  EXPECT_EQ(query_ncu_version(testing::fixture("ncu/fake_ncu.sh")), (NcuVersion{2024, 1, 1, 0}));
}

TEST(NcuVersionTest, ExecutableWithoutVersionIsAToolError) {
  try {
    (void)query_ncu_version("/bin/false");
    FAIL();
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("/bin/false --version"), std::string::npos);
  }
}

}  // namespace
}  // namespace kscope::ncu
