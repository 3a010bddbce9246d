#include <gtest/gtest.h>

#include "kscope/errors.hpp"
#include "kscope/options.hpp"

namespace kscope {
namespace {

template <class E>
std::string error_of(const Options& o) {
  try {
    o.validate();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(OptionsTest, DefaultsFollowNsightPython) {
  Options o;
  EXPECT_EQ(o.runs, 1);
  EXPECT_EQ(o.warmup_runs, 0);
  EXPECT_EQ(o.metrics, std::vector<std::string>{"gpu__time_duration.sum"});
  EXPECT_EQ(o.tool, "cupti");
  EXPECT_EQ(o.cache_control, "all");
  EXPECT_EQ(o.clock_control, "none");
  EXPECT_EQ(o.replay_mode, "kernel");
  EXPECT_EQ(o.thermal.mode, "auto");
  EXPECT_EQ(o.verbosity, Verbosity::kInfo);
  EXPECT_NO_THROW(o.validate());
}

TEST(OptionsTest, InvalidEnumValuesNameValueAndAllowedOnes) {
  Options o;
  o.cache_control = "some";
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid cache_control 'some'. Expected 'all', 'region' or 'none'.");
  o = Options{};
  o.clock_control = "invalid_value";
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid clock_control 'invalid_value'. Expected 'base' or 'none'.");
  o = Options{};
  o.replay_mode = "application";
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid replay_mode 'application'. Expected 'kernel' or 'range'.");
  o = Options{};
  o.tool = "nsys";
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid tool 'nsys'. Expected 'cupti', 'ncu' or 'sanitizer'.");
  o = Options{};
  o.thermal.mode = "on";
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid thermal_mode 'on'. Expected 'auto', 'manual' or 'off'.");
}

TEST(OptionsTest, RunsMustBePositive) {
  Options o;
  o.runs = 0;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid runs 0. Expected an integer >= 1 (measured repetitions per config).");
  o.runs = 1;
  o.warmup_runs = -1;
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid warmup_runs -1. Expected an integer >= 0.");
}

TEST(OptionsTest, MetricsMustBeNonEmpty) {
  Options o;
  o.metrics = {};
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid metrics []: at least one metric name is required, e.g. 'gpu__time_duration.sum'.");
  o.metrics = {"  "};
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid metric name '  ': metric names must not be empty.");
}

TEST(OptionsTest, ThermalContMustExceedWait) {
  Options o;
  o.thermal.wait = 20;
  o.thermal.cont = 20;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid thermal control parameters: thermal_cont (20°C) must be greater than "
            "thermal_wait (20°C). thermal_wait is the headroom at which profiling pauses, "
            "thermal_cont the headroom at which it resumes.");
}

TEST(OptionsTest, ThermalLimitsAreCheckedAgainstTheDefaultsToo) {
  Options o;
  o.thermal.wait = 25;  // the default thermal_cont is 20
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid thermal control parameters: thermal_cont (20°C, the default) must be greater "
            "than thermal_wait (25°C). thermal_wait is the headroom at which profiling pauses, "
            "thermal_cont the headroom at which it resumes.");
  o = Options{};
  o.thermal.cont = 5;  // the default thermal_wait is 10
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid thermal control parameters: thermal_cont (5°C) must be greater than "
            "thermal_wait (10°C, the default). thermal_wait is the headroom at which profiling "
            "pauses, thermal_cont the headroom at which it resumes.");
  o = Options{};
  o.thermal.wait = -5;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid thermal_wait -5. Expected a thermal headroom in °C >= 0 (the headroom at "
            "which profiling pauses).");
  o = Options{};
  o.thermal.wait = 15;  // below the default thermal_cont: fine
  EXPECT_NO_THROW(o.validate());
}

TEST(OptionsTest, ThermalTimeoutAndDeviceRanges) {
  Options o;
  o.thermal.timeout = 0;
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid thermal_timeout 0. Expected a number of seconds > 0.");
  o = Options{};
  o.thermal.device = -2;
  EXPECT_EQ(error_of<InvalidArgument>(o), "Invalid thermal_device -2. Expected a CUDA device ordinal >= 0.");
}

TEST(OptionsTest, BaseClocksNeedTheNcuTool) {
  Options o;
  o.clock_control = "base";
  const std::string msg = error_of<NotSupportedError>(o);
  EXPECT_NE(msg.find("clock_control 'base' needs the ncu tool"), std::string::npos) << msg;
  o.tool = "ncu";
  EXPECT_NO_THROW(o.validate());
}

TEST(OptionsTest, AllowedValuesAreListed) {
  EXPECT_EQ(allowed_values("cache_control"), (std::vector<std::string>{"all", "region", "none"}));
  EXPECT_THROW((void)allowed_values("colour"), InvalidArgument);
}

TEST(OptionsTest, AutoRunsCriteriaAreChecked) {
  Options o;
  o.adaptive.target_rel_ci = 0;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid target_rel_ci 0. Expected a fraction of the mean between 0 and 1, e.g. 0.005 "
            "for a CI95 half-width of 0.5 %.");
  o = {};
  o.adaptive.min_runs = 1;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid min_runs 1. Expected an integer >= 2 (a confidence interval needs two runs).");
  o = {};
  o.adaptive.max_runs = 4;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid max_runs 4: it must be at least min_runs (5).");
  o = {};
  o.adaptive.time_budget = -1;
  EXPECT_EQ(error_of<InvalidArgument>(o),
            "Invalid time_budget -1. Expected seconds > 0 (measured time per config).");
  o = {};
  o.adaptive.enabled = true;
  EXPECT_NO_THROW(o.validate());
  o.resume = "j.jsonl";
  EXPECT_EQ(error_of<NotSupportedError>(o),
            "resume with runs='auto' is not supported: a resumed sweep keeps the configs its "
            "journal holds with all `runs` runs, and a config of runs='auto' has as many as its "
            "stopping rule took. Run the sweep again without resume, or with a fixed runs=.");
  o.resume.clear();
  o.tool = "ncu";
  EXPECT_EQ(error_of<NotSupportedError>(o),
            "runs='auto' needs the cupti tool: the stopping rule decides after each batch of runs "
            "from the values measured so far, and tool 'ncu' hands its values to kscope only when "
            "the re-executed program has ended (docs/options.md, \"Adaptive runs\"). Use a fixed "
            "runs= with tool 'ncu', or tool 'cupti'.");
}

}  // namespace
}  // namespace kscope
