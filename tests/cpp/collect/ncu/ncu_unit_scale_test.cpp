// ncu's printed units reduced to kscope's base units: what --print-units auto shows, what base
// shows, and scales that must not be guessed.
#include "collect/ncu/ncu_unit_scale.hpp"

#include <gtest/gtest.h>

namespace kscope::ncu {
namespace {

void expect_base(const std::string& printed, const std::string& unit, double factor) {
  const auto b = base_unit(printed);
  ASSERT_TRUE(b.has_value()) << printed;
  EXPECT_EQ(b->unit, unit) << printed;
  EXPECT_DOUBLE_EQ(b->factor, factor) << printed;
}

TEST(NcuUnitScaleTest, DurationsBecomeNanoseconds) {
  expect_base("ns", "ns", 1);
  expect_base("us", "ns", 1e3);  // 56.2 us on the GPU machine = 56200 ns
  expect_base("ms", "ns", 1e6);
  expect_base("s", "ns", 1e9);
  expect_base("nsecond", "ns", 1);  // older ncu spellings
  expect_base("usecond", "ns", 1e3);
  expect_base("msecond", "ns", 1e6);
  expect_base("second", "ns", 1e9);
  expect_base("\xC2\xB5s", "ns", 1e3);
  expect_base("ps", "ns", 1e-3);
}

TEST(NcuUnitScaleTest, SizesBecomeBytesInPowersOf1000) {
  expect_base("byte", "byte", 1);
  expect_base("Kbyte", "byte", 1e3);
  expect_base("Mbyte", "byte", 1e6);  // 134.22 Mbyte = 8 bytes x 2^24 read by vadd
  expect_base("Gbyte", "byte", 1e9);
  expect_base("Tbyte", "byte", 1e12);
  expect_base("Kbyte/block", "byte/block", 1e3);
}

TEST(NcuUnitScaleTest, RatesBecomePerSecond) {
  expect_base("byte/second", "byte/second", 1);
  expect_base("byte/s", "byte/second", 1);
  expect_base("Gbyte/s", "byte/second", 1e9);
  expect_base("Tbyte/second", "byte/second", 1e12);
  expect_base("cycle/nsecond", "cycle/second", 1e9);
  expect_base("cycle/usecond", "cycle/second", 1e6);
  expect_base("inst/ms", "inst/second", 1e3);
  expect_base("Ghz", "hz", 1e9);
  expect_base("MHz", "Hz", 1e6);
}

TEST(NcuUnitScaleTest, OtherCountsWithAPrefix) {
  expect_base("Kinst", "inst", 1e3);
  expect_base("Mcycle", "cycle", 1e6);
  expect_base("Gsector", "sector", 1e9);
  expect_base("Kwavefront", "wavefront", 1e3);  // any lower-case unit after K, M, G, T, P, E
  expect_base("inst/Kcycle", "inst/cycle", 1e-3);
}

TEST(NcuUnitScaleTest, UnitsWithoutScaleStayAsTheyAre) {
  for (const char* u : {"", "%", "inst/cycle", "register/thread", "byte/block", "SM", "block",
                        "warp", "thread", "pass", "cluster", "sector/request", "l2_sector"}) {
    expect_base(u, u, 1);
  }
}

TEST(NcuUnitScaleTest, UnknownScalesAreNotGuessed) {
  for (const char* u : {"Kibyte", "Xbyte", "MiB/s", "byte/GiB", "Qcycle", "mhz", "ubyte"}) {
    EXPECT_FALSE(base_unit(u).has_value()) << u;
  }
}

}  // namespace
}  // namespace kscope::ncu
