#include <gtest/gtest.h>

#include "kscope/config.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

TEST(ValueTest, LiteralsPickTheNaturalType) {
  EXPECT_TRUE(Value(1 << 20).is_int());
  EXPECT_TRUE(Value(std::size_t{7}).is_int());
  EXPECT_TRUE(Value(0.5).is_double());
  EXPECT_TRUE(Value(0.5f).is_double());
  EXPECT_TRUE(Value("fp16").is_string());
  EXPECT_TRUE(Value(true).is_bool());
}

TEST(ValueTest, GetConvertsIntegersToAnyArithmeticType) {
  const Value v(1048576);
  EXPECT_EQ(v.get<std::int64_t>(), 1048576);
  EXPECT_EQ(v.get<int>(), 1048576);
  EXPECT_DOUBLE_EQ(v.get<double>(), 1048576.0);
}

TEST(ValueTest, GetOfWrongTypeNamesBothTypes) {
  const Value v("fp16");
  try {
    (void)v.get<int>();
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "config value fp16 is of type str, cannot be read as int");
  }
}

TEST(ValueTest, ToStringIsShortestRoundTrip) {
  EXPECT_EQ(Value(0.1).to_string(), "0.1");
  EXPECT_EQ(Value(2.0).to_string(), "2.0");
  EXPECT_EQ(Value(1e20).to_string(), "1e+20");
  EXPECT_EQ(Value(false).to_string(), "false");
  EXPECT_EQ(Value(-3).to_string(), "-3");
}

TEST(ConfigTest, SingleParameterSweepGetsIndexAndName) {
  auto cs = configs({1 << 20, 1 << 24}, "n");
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[1].index(), 1u);
  EXPECT_EQ(cs[1].get<std::int64_t>("n"), 1 << 24);
  EXPECT_EQ(cs[0].label(), "n=1048576");
}

TEST(ConfigTest, TheConfigsOfASweepShareTheirParameterNames) {
  auto cs = product({"n", "dtype"}, {{1, 2, 3}, {"f32", "f16"}});
  ASSERT_EQ(cs.size(), 6u);
  for (const auto& c : cs) EXPECT_EQ(&c.names(), &cs[0].names());  // one copy for the sweep
  const Config other({1, 2}, {"a", "b"});
  EXPECT_NE(&other.names(), &cs[0].names());
  EXPECT_EQ(cs[5].label(), "n=3, dtype=f16");
  EXPECT_EQ(other.names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(Config().names().empty());
}

TEST(ConfigTest, DefaultNamesAreArgN) {
  Config c({1, "x"});
  EXPECT_EQ(c.names(), (std::vector<std::string>{"arg0", "arg1"}));
  EXPECT_EQ(c.label(), "arg0=1, arg1=x");
}

TEST(ConfigTest, UnknownNameListsKnownNames) {
  auto cs = configs({"n", "dtype"}, {{1, "f32"}});
  try {
    (void)cs[0].at("size");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "config has no parameter named 'size'; parameters are: n, dtype");
  }
}

TEST(ConfigTest, IndexOutOfRangeSaysHowManyValues) {
  Config c({1});
  EXPECT_THROW((void)c[3], InvalidArgument);
}

TEST(ConfigTest, RowsMustMatchNames) {
  try {
    (void)configs({"n", "dtype"}, {{1, "f32"}, {2}});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "config 1 has 1 values but 2 parameter names were given");
  }
}

TEST(ConfigTest, ProductIsCartesianFirstAxisSlowest) {
  auto cs = product({"n", "dtype"}, {{1024, 2048}, {"f32", "f16"}});
  ASSERT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs[0].label(), "n=1024, dtype=f32");
  EXPECT_EQ(cs[1].label(), "n=1024, dtype=f16");
  EXPECT_EQ(cs[3].label(), "n=2048, dtype=f16");
  EXPECT_EQ(cs[3].index(), 3u);
}

TEST(ConfigTest, ProductChecksNamesAgainstAxes) {
  EXPECT_THROW((void)product({"n"}, {{1}, {2}}), ConfigError);
}

TEST(ConfigTest, ExplicitLabelWins) {
  Config c({1});
  c.set_label("tensor(4, 4)");
  EXPECT_EQ(c.label(), "tensor(4, 4)");
}

}  // namespace
}  // namespace kscope
