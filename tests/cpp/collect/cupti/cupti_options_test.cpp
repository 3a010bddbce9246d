// What the cupti tool checks before any GPU work, and the metric_replay option.
#include <gtest/gtest.h>

#include <cstdio>

#include "collect/cupti/cupti_collector.hpp"
#include "collect/cupti/metric_name_rules.hpp"
#include "support/error_text.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

using kscope::testing::error_text;

Options with_metrics(std::vector<std::string> metrics) {
  Options o;
  o.metrics = std::move(metrics);
  return o;
}

TEST(CuptiOptionsTest, TimingAloneNeverNeedsTheRangeProfiler) {
  EXPECT_FALSE(cupti::needs_range_profiler(Options{}));
  EXPECT_TRUE(cupti::needs_range_profiler(with_metrics({kTimeMetric, "dram__bytes_read.sum"})));
  Options range;
  range.replay_mode = "range";
  EXPECT_TRUE(cupti::needs_range_profiler(range));
}

TEST(CuptiOptionsTest, NcuOnlyMetricsAreRejectedBeforeAnyGpuWork) {
  // Launch and device metrics the cupti tool does not serve (launch_metrics.hpp).
  for (const char* name : {"launch__occupancy_per_block_size", "launch__func_cache_config",
                           "device__attribute_display_name", "sass__inst_executed_per_opcode"}) {
    const auto msg = error_text<NotSupportedError>(
        [&] { cupti::CuptiCollector::check_options(with_metrics({kTimeMetric, name})); });
    EXPECT_NE(msg.find("metric '" + std::string(name) + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Use tool 'ncu'"), std::string::npos) << msg;
  }
}

TEST(CuptiOptionsTest, ServedLaunchAndDeviceMetricsPassWithTheDuration) {
  for (const char* name : {"launch__grid_size", "launch__registers_per_thread", "launch__sm_count",
                           "launch__waves_per_multiprocessor", "device__attribute_max_threads_per_block"}) {
    EXPECT_NO_THROW(cupti::CuptiCollector::check_options(with_metrics({kTimeMetric, name}))) << name;
  }
  // Device metrics need no launch: they go with counters too (example 09: launch__sm_count).
  EXPECT_NO_THROW(cupti::CuptiCollector::check_options(
      with_metrics({"smsp__sass_inst_executed_op_shared_ld.sum", "launch__sm_count"})));
}

TEST(CuptiOptionsTest, LaunchConfigurationMetricsWithCountersAreNotSupportedYet) {
  const auto msg = error_text<NotSupportedError>([] {
    cupti::CuptiCollector::check_options(with_metrics({"dram__bytes_read.sum", "launch__grid_size"}));
  });
  EXPECT_EQ(msg.rfind("metric 'launch__grid_size' comes from the kernel's launch configuration, "
                      "which the cupti tool reads from kernel activity records; together with "
                      "hardware-counter metrics",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("use tool 'ncu'"), std::string::npos) << msg;
}

TEST(CuptiOptionsTest, MalformedNamesAreInvalidArguments) {
  const auto comma = error_text<InvalidArgument>(
      [] { cupti::CuptiCollector::check_options(with_metrics({"gpu__time_duration.sum,dram__bytes_read.sum"})); });
  EXPECT_NE(comma.find("contains a comma"), std::string::npos) << comma;
  const auto space = error_text<InvalidArgument>(
      [] { cupti::CuptiCollector::check_options(with_metrics({"dram__bytes read.sum"})); });
  EXPECT_NE(space.find("contains whitespace"), std::string::npos) << space;
}

TEST(CuptiOptionsTest, CounterMetricsAndRangeReplayAreAccepted) {
  Options o = with_metrics({kTimeMetric, "dram__bytes_read.sum"});
  o.replay_mode = "range";
  EXPECT_NO_THROW(cupti::CuptiCollector::check_options(o));
}

TEST(CuptiOptionsTest, MetricReplayIsValidated) {
  Options o;
  EXPECT_EQ(o.metric_replay, "checkpoint");
  EXPECT_EQ(allowed_values("metric_replay"),
            (std::vector<std::string>{"checkpoint", "application", "kernel"}));
  o.metric_replay = "app";
  EXPECT_EQ(error_text<InvalidArgument>([&] { o.validate(); }),
            "Invalid metric_replay 'app'. Expected 'checkpoint', 'application' or 'kernel'.");
  for (const char* ok : {"application", "kernel", "checkpoint"}) {
    o.metric_replay = ok;
    EXPECT_NO_THROW(o.validate()) << ok;
  }
}

TEST(CuptiOptionsTest, RangeReplayRefusesCuptiKernelReplay) {
  Options o;
  o.replay_mode = "range";
  o.metric_replay = "kernel";
  EXPECT_EQ(error_text<InvalidArgument>([&] { o.validate(); }),
            "Invalid metric_replay 'kernel' with replay_mode 'range': CUPTI's kernel replay "
            "replays single kernels, not ranges. Use metric_replay 'checkpoint' (the default: "
            "device memory restored between passes) or 'application'.");
  for (const char* ok : {"checkpoint", "application"}) {
    o.metric_replay = ok;
    EXPECT_NO_THROW(o.validate()) << ok;
  }
}

TEST(CuptiOptionsTest, DurationSourceIsValidatedAndSelectsTheRangeProfiler) {
  Options o;
  EXPECT_EQ(o.duration_source, "activity");
  EXPECT_FALSE(cupti::needs_range_profiler(o));  // plain timing: activity records only
  o.duration_source = "counters";
  EXPECT_EQ(error_text<InvalidArgument>([&] { o.validate(); }),
            "Invalid duration_source 'counters'. Expected 'activity', 'profiler' or 'events'.");
  o.duration_source = "profiler";
  EXPECT_NO_THROW(o.validate());
  EXPECT_TRUE(cupti::needs_range_profiler(o));
  o.duration_source = "events";
  EXPECT_NO_THROW(o.validate());
  EXPECT_FALSE(cupti::needs_range_profiler(o));  // CUDA events, no counters
}

TEST(CuptiOptionsTest, EventDurationsMeasureTheTimeMetricOfRegionsWithTheCuptiTool) {
  Options o;
  o.duration_source = "events";
  o.adaptive.enabled = true;  // events are complete once the device is synchronised
  EXPECT_NO_THROW(cupti::CuptiCollector::check_options(o));
  const std::string text =
      "duration_source 'events' times each annotated region with a pair of CUDA events and "
      "measures nothing else: it needs metrics ['gpu__time_duration.sum'] and replay_mode "
      "'kernel'. Collect the other metrics in a sweep of their own.";
  o.metrics = {kTimeMetric, "dram__bytes_read.sum"};
  EXPECT_EQ(error_text<NotSupportedError>([&] { cupti::CuptiCollector::check_options(o); }), text);
  o.metrics = {kTimeMetric};
  o.replay_mode = "range";
  EXPECT_EQ(error_text<NotSupportedError>([&] { cupti::CuptiCollector::check_options(o); }), text);
  o.replay_mode = "kernel";
  o.adaptive.enabled = false;
  o.tool = "ncu";
  EXPECT_EQ(error_text<NotSupportedError>([&] { o.validate(); }),
            "duration_source 'events' is the cupti tool's: it records CUDA events in this process "
            "around every annotated region. Tool 'ncu' measures with its own profiler; use tool "
            "'cupti' for event timing.");
}

TEST(CuptiOptionsTest, AdaptiveRunsNeedActivityDurations) {
  Options o;
  o.adaptive.enabled = true;
  EXPECT_NO_THROW(cupti::CuptiCollector::check_options(o));
  const std::string text =
      "runs='auto' times kernels from their activity records: the stopping rule decides after "
      "each batch of runs from the values so far, and the range profiler (hardware-counter "
      "metrics, duration_source 'profiler') hands its values over only after the sweep. Use a "
      "fixed runs= with these metrics, or runs='auto' with gpu__time_duration.sum and "
      "duration_source 'activity'.";
  o.duration_source = "profiler";
  EXPECT_EQ(error_text<NotSupportedError>([&] { cupti::CuptiCollector::check_options(o); }), text);
  o.duration_source = "activity";
  o.metrics = {kTimeMetric, "dram__bytes_read.sum"};
  EXPECT_EQ(error_text<NotSupportedError>([&] { cupti::CuptiCollector::check_options(o); }), text);
}

TEST(CuptiOptionsTest, MetricReplaySurvivesTheJsonRoundTrip) {
  Results::Data d;
  d.name = "roundtrip";
  d.options.metric_replay = "application";
  const std::string path = testing::scratch_dir("cupti_options") + "r.json";
  Results(d).write_json(path);
  EXPECT_EQ(Results::load(path).options().metric_replay, "application");
}

TEST(CuptiOptionsTest, ProfileRejectsNcuOnlyMetricBeforeTheDeviceCheck) {
  Options o = with_metrics({"launch__occupancy_per_block_size"});
  o.verbosity = Verbosity::kSilent;
  const auto msg = error_text<NotSupportedError>(
      [&] { (void)profile("pre_gpu", configs({1}), [](const Config&) {}, o); });
  EXPECT_NE(msg.find("Use tool 'ncu'"), std::string::npos) << msg;
}

TEST(CuptiOptionsTest, CounterMetricsWithoutGpuSayNoCudaDevice) {
  std::string reason;
  if (testing::gpu_available(&reason)) GTEST_SKIP() << "a GPU is present";
  Options o = with_metrics({"dram__bytes_read.sum"});
  o.verbosity = Verbosity::kSilent;
  const auto msg = error_text<NoDeviceError>(
      [&] { (void)profile("no_gpu", configs({1}), [](const Config&) {}, o); });
  EXPECT_EQ(msg.rfind("no CUDA device: ", 0), 0u) << msg;
}

}  // namespace
}  // namespace kscope
