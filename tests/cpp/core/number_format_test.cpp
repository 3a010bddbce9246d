// Number formatting does not follow the C locale: in a process that switched LC_NUMERIC to a
// comma-decimal locale (a host application calling setlocale(LC_ALL, ""), a Python program
// calling locale.setlocale), numbers in CSV, JSON and labels keep a '.' point.
#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/number_format.hpp"

namespace kscope {
namespace {

// Switches the whole C locale to a comma-decimal one for one test and restores "C" after it.
// de_DE.UTF-8 is compiled into the build tree (tests/cpp/core/CMakeLists.txt) when the system
// has none; without either the test is skipped with the reason.
class CommaDecimalLocale : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"}) {
      if (std::setlocale(LC_ALL, name) != nullptr) return;
    }
#ifdef KSCOPE_TEST_LOCALE_DIR
    setenv("LOCPATH", KSCOPE_TEST_LOCALE_DIR, 1);
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr) return;
#endif
    GTEST_SKIP() << "no comma-decimal locale: neither de_DE.UTF-8 nor fr_FR.UTF-8 is installed "
                    "and localedef could not build one (Debian package `locales`)";
  }
  void TearDown() override { std::setlocale(LC_ALL, "C"); }
};

TEST_F(CommaDecimalLocale, TheLocaleReallyWritesCommas) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", 1.5);
  EXPECT_STREQ(buf, "1,5");  // otherwise the tests below would prove nothing
}

// The layouts every output relies on: Python's repr for shortest, printf's in the "C" locale
// for the others. Checked in the default locale and again under a comma-decimal one.
void expect_the_c_layouts() {
  EXPECT_EQ(format_shortest(2000), "2000.0");
  EXPECT_EQ(format_shortest(0.1), "0.1");
  EXPECT_EQ(format_shortest(1.5), "1.5");
  EXPECT_EQ(format_shortest(1e-5), "1e-05");
  EXPECT_EQ(format_shortest(1.5e-7), "1.5e-07");
  EXPECT_EQ(format_shortest(1e16), "1e+16");
  EXPECT_EQ(format_shortest(123456789.0), "123456789.0");
  EXPECT_EQ(format_shortest(-0.5), "-0.5");
  EXPECT_EQ(format_shortest(2.0 / 3.0), "0.6666666666666666");
  EXPECT_EQ(format_significant(12345.678, 6), "12345.7");
  EXPECT_EQ(format_significant(0.000123456, 3), "0.000123");
  EXPECT_EQ(format_significant(0, 6), "0.00000");
  EXPECT_EQ(format_significant(1.5e20, 3), "1.50e+20");
  EXPECT_EQ(format_fixed(3.14159, 2), "3.14");
  EXPECT_EQ(format_fixed(50, 2), "50.00");
  EXPECT_EQ(format_fixed(-0.5, 0), "-0");
  EXPECT_EQ(format_general(0.125, 10), "0.125");
  EXPECT_EQ(format_general(1e20, 10), "1e+20");
  EXPECT_EQ(format_general(123456789012.0, 10), "1.23456789e+11");
}

TEST(NumberFormat, PythonAndCLayouts) { expect_the_c_layouts(); }

TEST_F(CommaDecimalLocale, TheSameLayoutsWithAPoint) { expect_the_c_layouts(); }

TEST(NumberFormat, NonFiniteValues) {
  for (const auto& text : {format_shortest(NAN), format_significant(NAN, 3), format_fixed(NAN, 2),
                           format_general(NAN, 4)}) {
    EXPECT_EQ(text, "nan");
  }
  EXPECT_EQ(format_fixed(-INFINITY, 2), "-inf");
  EXPECT_EQ(format_general(INFINITY, 4), "inf");
}

TEST(NumberFormat, ShortestRoundTripsExtremes) {
  EXPECT_EQ(format_shortest(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(format_shortest(5e-324), "5e-324");
  EXPECT_EQ(format_shortest(1e15), "1000000000000000.0");
  EXPECT_EQ(format_shortest(0.0001), "0.0001");
  EXPECT_EQ(format_shortest(0.0), "0.0");
}

}  // namespace
}  // namespace kscope
