// sweep_difference (api/sweep_identity.cpp): what resume and merge call the same sweep. The
// session name, the parameters, the configs and the measurement options must agree; output and
// display options may differ.
#include "api/sweep_identity.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sweep_fixture.hpp"

namespace kscope {
namespace {
using testing::sweep_configs;

Results::Data saved(const Options& o) {
  Results::Data d;
  d.name = "sweep";
  d.options = o;
  d.parameters = {"n"};
  d.configs = sweep_configs();
  return d;
}

TEST(SweepIdentityTest, TheSameSweepHasNoDifference) {
  const Options o;
  EXPECT_EQ(sweep_difference(saved(o), "sweep", sweep_configs(), o), std::nullopt);
}

TEST(SweepIdentityTest, OutputAndDisplayOptionsMayDiffer) {
  const Options there;
  Options here;
  here.verbosity = Verbosity::kDebug;
  here.output_prefix = "elsewhere/";
  here.output_csv = !there.output_csv;
  here.on_config_error = "skip";
  here.shard = "0/2";
  EXPECT_EQ(sweep_difference(saved(there), "sweep", sweep_configs(), here), std::nullopt);
}

TEST(SweepIdentityTest, AMeasurementOptionIsADifferenceWordedWithBothSides) {
  Options there;
  there.runs = 2;
  Options here;
  here.runs = 3;
  EXPECT_EQ(sweep_difference(saved(there), "sweep", sweep_configs(), here),
            "the journal was written with runs=2, this session has runs=3");
  EXPECT_EQ(sweep_difference(saved(there), "sweep", sweep_configs(), here, "part 1", "part 2"),
            "part 1 was written with runs=2, part 2 has runs=3");
}

TEST(SweepIdentityTest, NameParametersAndConfigsAreDifferences) {
  const Options o;
  EXPECT_EQ(sweep_difference(saved(o), "other", sweep_configs(), o),
            "the journal is of session 'sweep', this session is 'other'");
  EXPECT_EQ(sweep_difference(saved(o), "sweep", sweep_configs(4), o),
            "the journal holds 6 configs, this session has 4");
  std::vector<Config> changed = sweep_configs();
  changed[3] = Config(std::vector<Value>{30}, std::vector<std::string>{"n"});
  EXPECT_EQ(sweep_difference(saved(o), "sweep", changed, o),
            "config 3 is (n=3) in the journal and (n=30) here");
  std::vector<Config> renamed;
  for (int n = 0; n < 6; ++n) renamed.emplace_back(std::vector<Value>{n}, std::vector<std::string>{"m"});
  EXPECT_EQ(sweep_difference(saved(o), "sweep", renamed, o),
            "the journal's parameters are [\"n\"], this session's are [\"m\"]");
}

TEST(SweepIdentityTest, ConfigValuesCompareAsTheyWereStored) {
  const Options o;
  // 3.0 is stored as a number equal to 3, NaN as null: the same configs as saved.
  std::vector<Config> same = sweep_configs();
  same[3] = Config(std::vector<Value>{3.0}, std::vector<std::string>{"n"});
  EXPECT_EQ(sweep_difference(saved(o), "sweep", same, o), std::nullopt);
  Results::Data nan = saved(o);
  nan.configs[2] = Config(std::vector<Value>{std::nan("")}, std::vector<std::string>{"n"});
  std::vector<Config> here = sweep_configs();
  here[2] = Config(std::vector<Value>{-std::nan("")}, std::vector<std::string>{"n"});
  EXPECT_EQ(sweep_difference(nan, "sweep", here, o), std::nullopt);
  here[2] = Config(std::vector<Value>{std::string("2")}, std::vector<std::string>{"n"});
  EXPECT_EQ(sweep_difference(saved(o), "sweep", here, o),
            "config 2 is (n=2) in the journal and (n=2) here");
}

}  // namespace
}  // namespace kscope
