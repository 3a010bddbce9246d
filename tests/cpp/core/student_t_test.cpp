#include <gtest/gtest.h>

#include <cmath>

#include "core/student_t.hpp"

namespace kscope::stats {
namespace {

// Two-sided 95 % critical values t(0.975, df), from the standard published table (e.g. NIST/
// SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2), 3 decimals.
TEST(StudentTTest, QuantileMatchesPublishedTable975) {
  const struct { double df; double t; } table[] = {
      {1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {6, 2.447},
      {7, 2.365},  {8, 2.306}, {9, 2.262}, {10, 2.228}, {15, 2.131}, {20, 2.086},
      {29, 2.045}, {30, 2.042}, {60, 2.000}, {100, 1.984}, {120, 1.980}};
  for (const auto& row : table) {
    EXPECT_NEAR(student_t_quantile(0.975, row.df), row.t, 5e-4) << "df " << row.df;
  }
}

TEST(StudentTTest, QuantileMatchesPublishedTableOtherLevels) {
  EXPECT_NEAR(student_t_quantile(0.95, 5), 2.015, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.995, 10), 3.169, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.9995, 3), 12.924, 5e-4);
  EXPECT_NEAR(student_t_quantile(0.90, 1), 3.078, 5e-4);
  // Large df tends to the normal quantile 1.959964.
  EXPECT_NEAR(student_t_quantile(0.975, 1e7), 1.959964, 1e-5);
}

TEST(StudentTTest, QuantileIsSymmetricAndInvertsTheCdf) {
  EXPECT_DOUBLE_EQ(student_t_quantile(0.5, 4), 0.0);
  EXPECT_NEAR(student_t_quantile(0.025, 4), -student_t_quantile(0.975, 4), 1e-12);
  for (double df : {0.5, 1.0, 2.5, 7.0, 40.0}) {
    for (double p : {0.6, 0.9, 0.99, 0.999}) {
      EXPECT_NEAR(student_t_cdf(student_t_quantile(p, df), df), p, 1e-9) << df << " " << p;
    }
  }
}

TEST(StudentTTest, CdfKnownValues) {
  // df = 1 is the Cauchy distribution: CDF(1) = 3/4.
  EXPECT_NEAR(student_t_cdf(1.0, 1), 0.75, 1e-12);
  // df = 2: CDF(t) = 1/2 + t / (2 sqrt(2 + t^2)).
  EXPECT_NEAR(student_t_cdf(1.5, 2), 0.5 + 1.5 / (2 * std::sqrt(2 + 2.25)), 1e-12);
  EXPECT_DOUBLE_EQ(student_t_cdf(0, 3), 0.5);
}

TEST(StudentTTest, OutsideTheDomainIsNaN) {
  EXPECT_TRUE(std::isnan(student_t_quantile(0, 3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1, 3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0.9, 0)));
  EXPECT_TRUE(std::isnan(student_t_cdf(1, -1)));
}

TEST(StudentTTest, NormalCdf) {
  EXPECT_NEAR(normal_cdf(1.959964), 0.975, 1e-6);
  EXPECT_DOUBLE_EQ(normal_cdf(0), 0.5);
}

}  // namespace
}  // namespace kscope::stats
