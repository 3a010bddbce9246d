// CUPTI dimension units to the units ncu prints (raw CSV page: "ns", "byte", "%").
#include <gtest/gtest.h>

#include "collect/cupti/ncu_units.hpp"

namespace kscope::cupti {
namespace {

TEST(NcuUnitsTest, VerifiedAgainstNcuCsv) {
  // Units seen in ncu 2025.3.1's raw CSV (tests/fixtures/ncu/vadd_raw_nvtx.csv).
  EXPECT_EQ(ncu_unit("nanosecond"), "ns");
  EXPECT_EQ(ncu_unit("percent"), "%");
  EXPECT_EQ(ncu_unit("byte"), "byte");
  EXPECT_EQ(ncu_unit("warp"), "warp");
  EXPECT_EQ(ncu_unit("thread"), "thread");
  EXPECT_EQ(ncu_unit("register/thread"), "register/thread");
}

TEST(NcuUnitsTest, ClockDomainsSectorsRequestsAndInstructions) {
  EXPECT_EQ(ncu_unit("gpc_cycle"), "cycle");
  EXPECT_EQ(ncu_unit("dram_cycle"), "cycle");
  EXPECT_EQ(ncu_unit("gpc_cycle/second"), "cycle/second");
  EXPECT_EQ(ncu_unit("byte/second"), "byte/second");
  EXPECT_EQ(ncu_unit("l2_sector"), "sector");
  EXPECT_EQ(ncu_unit("l2_sector/l1tex_request"), "sector/request");
  EXPECT_EQ(ncu_unit("instruction"), "inst");
  EXPECT_EQ(ncu_unit("instruction/gpc_cycle"), "inst/cycle");
}

TEST(NcuUnitsTest, DimensionlessAndUnknownPassThrough) {
  EXPECT_EQ(ncu_unit(""), "");
  EXPECT_EQ(ncu_unit("l1tex_wavefront"), "l1tex_wavefront");
}

}  // namespace
}  // namespace kscope::cupti
