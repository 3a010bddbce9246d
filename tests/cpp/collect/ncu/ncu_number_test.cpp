#include "collect/ncu/ncu_number.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace kscope::ncu {
namespace {

TEST(NcuNumberTest, ThousandsSeparatorsAndDecimals) {
  EXPECT_EQ(parse_ncu_number("1,980,000"), 1980000.0);
  EXPECT_EQ(parse_ncu_number("2,624.00"), 2624.0);
  EXPECT_EQ(parse_ncu_number("85.33"), 85.33);
  EXPECT_EQ(parse_ncu_number(" -1.5 "), -1.5);
  EXPECT_EQ(parse_ncu_number("1e3"), 1000.0);
  EXPECT_EQ(parse_ncu_number("9.0"), 9.0);
}

TEST(NcuNumberTest, NotAvailableIsNaN) {
  EXPECT_TRUE(std::isnan(*parse_ncu_number("n/a")));
  EXPECT_TRUE(std::isnan(*parse_ncu_number("")));
}

TEST(NcuNumberTest, TextIsNotANumber) {
  EXPECT_FALSE(parse_ncu_number("PolicySpread"));
  EXPECT_FALSE(parse_ncu_number("NVIDIA H200"));
  EXPECT_FALSE(parse_ncu_number("inf"));
  EXPECT_FALSE(parse_ncu_number("(256, 1, 1)"));
  EXPECT_FALSE(parse_ncu_number("1.2.3x"));
}

}  // namespace
}  // namespace kscope::ncu
