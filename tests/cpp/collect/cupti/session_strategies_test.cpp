// The counter collection strategies on a fake range profiler: which CUPTI calls each scope makes
// around runs, passes and annotations, when device memory is saved and restored, how batches
// are sized and re-enabled, and what the records carry. The real profiler runs in the GPU tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collect/cupti/annotation_sessions.hpp"
#include "collect/cupti/counter_batch.hpp"
#include "collect/cupti/launch_log.hpp"
#include "collect/cupti/run_sessions.hpp"
#include "collect/cupti/span_sessions.hpp"
#include "core/annotation_registry.hpp"
#include "core/logger.hpp"
#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope::cupti {
namespace {

using kscope::testing::error_text;

// Records every call in `events`. Ranges are recorded like CUPTI's: one per launch (auto range) or
// per push (user range) while a session is open, in the first pass of a multi-pass set only (the
// later passes collect the same ranges again). The first Start since Enable fixes the capacity.
class FakeProfiler : public RangeProfilerApi {
 public:
  explicit FakeProfiler(std::vector<std::string>& events, std::size_t passes = 1)
      : events_(events), passes_(passes) {}
  void start_session(Trace) override {}
  void hold_images(Images images) override { held_ = std::move(images); }
  Images take_images() override { return std::exchange(held_, Images{}); }
  void set_tracing(bool) override {}
  std::size_t range_capacity() const override { return capacity_; }
  void reenable() override {
    events_.push_back("reenable");
    capacity_ = 0;
  }
  std::size_t counter_data_size(const std::vector<const char*>&, std::size_t ranges) override {
    return 16 * ranges;
  }
  void initialize_image(std::vector<std::uint8_t>&) override {}
  void set_config(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& image,
                  const Mode& m) override {
    events_.push_back("set_config " + std::to_string(m.max_ranges));
    configured_buffers = {config.data(), image.data()};
    configured_ = m.max_ranges;
    if (m.kernel_replay) passes_ = 1;  // CUPTI replays each kernel itself: one Start..Stop
    names_.clear();
    pass_ = 0;
  }
  void start() override {
    events_.push_back("start");
    if (capacity_ == 0) capacity_ = configured_;
    open_ = true;
  }
  StopResult stop() override {
    events_.push_back("stop");
    open_ = false;
    StopResult r;
    r.pass_index = ++pass_;
    r.all_passes_submitted = pass_ >= passes_;
    return r;
  }
  void push_range(const std::string& name) override {
    events_.push_back("push " + name);
    if (open_ && pass_ == 0) names_.push_back(name);
  }
  void pop_range() override { events_.push_back("pop"); }
  std::size_t decode() override {
    events_.push_back("decode");
    return 0;
  }
  std::size_t num_ranges(const std::vector<std::uint8_t>&) override { return names_.size(); }
  std::string range_name(const std::vector<std::uint8_t>&, std::size_t i) override { return names_[i]; }
  const std::map<std::string, StepTime>& step_times() const override { return steps_; }

  /// The config and counter data buffers of the last SetConfig.
  std::pair<const std::uint8_t*, const std::uint8_t*> configured_buffers{nullptr, nullptr};

  /// A kernel launch reached the GPU.
  void kernel() {
    if (open_ && pass_ == 0) names_.push_back(std::to_string(names_.size()));
  }

 private:
  std::vector<std::string>& events_;
  std::size_t passes_;
  std::size_t capacity_ = 0, configured_ = 0, pass_ = 0;
  bool open_ = false;
  std::vector<std::string> names_;
  std::map<std::string, StepTime> steps_;
  Images held_;
};

// Range i evaluates to i + 1 for every metric.
class FakeEvaluator : public MetricEvaluator {
 public:
  void evaluate(const std::vector<std::uint8_t>&, std::size_t range,
                const std::vector<const char*>& metrics, double* values) const override {
    for (std::size_t m = 0; m < metrics.size(); ++m) values[m] = static_cast<double>(range + 1);
  }
};

class FakeCheckpoint : public MemoryCheckpoint {
 public:
  explicit FakeCheckpoint(std::vector<std::string>& events) : events_(events) {}
  void save() override { events_.push_back("save"); }
  void restore() override { events_.push_back("restore"); }

 private:
  std::vector<std::string>& events_;
};

// A strategy with the real LaunchLog and CounterBatch over the fakes, driven like the Session and
// the annotation registry drive the collector.
struct Harness {
  Harness(const std::string& replay_mode, const std::string& metric_replay, std::size_t passes,
          BatchOverride batch = BatchOverride::kNone)
      : profiler(events, passes),
        plan(plan_collection(replay_mode, metric_replay, passes, batch)),
        counters(profiler, evaluator,
                 CounterBatch::Setup{{}, {{"m"}, {"ns"}}, plan.user_range, plan.kernel_replay,
                                     plan.passes_per_run, 0},
                 logger) {
    const SessionTools tools{profiler, counters, launches, plan, 0};
    switch (plan.scope) {
      case SessionScope::kSpan: strategy = std::make_unique<SpanSessions>(tools); break;
      case SessionScope::kAnnotation: strategy = std::make_unique<AnnotationSessions>(tools); break;
      case SessionScope::kRun:
        strategy = std::make_unique<RunSessions>(tools, plan.restore_memory ? &checkpoint : nullptr);
        break;
    }
    counters.prime(first_session_ranges(plan, 2, 2));
    events.clear();
  }

  /// One execution of `run` (pass `pass`), like Session::execute.
  void execute(const RunId& run, int pass, const std::function<void()>& body) {
    auto& registry = AnnotationRegistry::instance();
    strategy->prepare_pass(run, pass);
    registry.start_run(run);
    launches.begin_run(run);
    strategy->before_run(run, pass);
    body();
    launches.end_run();
    try {
      strategy->after_run(run, pass);
    } catch (...) {
      (void)registry.finish_run();
      throw;
    }
    (void)registry.finish_run();
  }
  /// Every pass of a measured run.
  void measured(const RunId& run, const std::function<void()>& body) {
    for (int p = 0; p < plan.passes_per_run; ++p) execute(run, p, body);
  }
  void annotate(const std::string& name, const std::function<void()>& body) {
    auto& registry = AnnotationRegistry::instance();
    (void)registry.begin(name);
    if (launches.note_annotation(true)) strategy->on_annotation(true, name);
    body();
    const bool act = launches.note_annotation(false);
    registry.end(false);
    if (act) strategy->on_annotation(false, name);
  }
  void launch(const std::string& kernel, bool internal = false) {
    LaunchEvent e;
    e.correlation_id = ++correlation;
    e.symbol = kernel.c_str();
    e.internal = internal;
    launches.on_launch(e);
    e.entering = false;
    launches.on_launch(e);
    profiler.kernel();
  }

  std::vector<std::string> events;
  FakeProfiler profiler;
  FakeEvaluator evaluator;
  FakeCheckpoint checkpoint{events};
  CollectionPlan plan;
  Options options = [] {
    Options o;
    o.verbosity = Verbosity::kSilent;
    return o;
  }();
  Logger logger{options};
  LaunchLog launches;
  CounterBatch counters;
  std::unique_ptr<SessionStrategy> strategy;
  std::uint32_t correlation = 0;
};

std::vector<std::string> without_config(const std::vector<std::string>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    if (e.rfind("set_config", 0) != 0) out.push_back(e);
  }
  return out;
}

TEST(SessionStrategiesTest, CheckpointReplayRestoresMemoryBeforeEveryLaterPass) {
  Harness h("kernel", "checkpoint", 3);
  ASSERT_EQ(h.plan.scope, SessionScope::kRun);
  h.measured(RunId{0, 0, false}, [&] {
    h.launch("input");  // outside the annotation: profiled, not attributed
    h.annotate("k", [&] { h.launch("kern"); });
  });
  EXPECT_EQ(without_config(h.events),
            (std::vector<std::string>{"save", "start", "stop", "restore", "start", "stop", "restore",
                                      "start", "stop", "decode"}));
  const auto records = h.counters.take_records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].annotation, "k");
  EXPECT_EQ(records[0].kernel, "kern");
  ASSERT_EQ(records[0].metrics.size(), 1u);
  EXPECT_EQ(records[0].metrics[0].value, 2.0);  // the second range: the first is "input"
}

TEST(SessionStrategiesTest, KscopesFlushBetweenTwoKernelsTakesARangeButIsNotTheRegions) {
  Harness h("kernel", "checkpoint", 2);
  h.measured(RunId{0, 0, false}, [&] {
    h.annotate("two_sums", [&] {
      h.launch("reduce");
      h.launch("discard_lines", /*internal=*/true);  // cache_control "all": the flush before the next
      h.launch("reduce");
    });
  });
  const auto records = h.counters.take_records();
  ASSERT_EQ(records.size(), 2u);
  for (const auto& r : records) {
    EXPECT_EQ(r.annotation, "two_sums");
    EXPECT_EQ(r.kernel, "reduce");
  }
  EXPECT_EQ(records[0].metrics[0].value, 1.0);  // the first range
  EXPECT_EQ(records[1].metrics[0].value, 3.0);  // the third: the second is the flush's
}

TEST(SessionStrategiesTest, WarmupRunsAreNeitherProfiledNorCheckpointed) {
  Harness h("kernel", "checkpoint", 3);
  h.execute(RunId{0, 0, true}, 0, [&] { h.annotate("k", [&] { h.launch("kern"); }); });
  EXPECT_TRUE(h.events.empty()) << h.events.front();
  EXPECT_TRUE(h.counters.take_records().empty());
}

TEST(SessionStrategiesTest, ApplicationReplayRestoresNothing) {
  Harness h("kernel", "application", 2);
  h.measured(RunId{0, 0, false}, [&] { h.annotate("k", [&] { h.launch("kern"); }); });
  EXPECT_EQ(without_config(h.events),
            (std::vector<std::string>{"start", "stop", "start", "stop", "decode"}));
  EXPECT_EQ(h.counters.take_records().size(), 1u);
}

TEST(SessionStrategiesTest, APassThatLaunchesOtherKernelsIsNamed) {
  Harness h("kernel", "checkpoint", 2);
  int pass = 0;
  const auto msg = error_text<ToolError>([&] {
    h.measured(RunId{1, 0, false}, [&] {
      h.annotate("k", [&] {
        h.launch("kern");
        if (pass++ == 1) h.launch("extra");  // autotuning in the second pass
      });
    });
  });
  EXPECT_NE(msg.find("Replay pass 2 of config 1 run 0 did not repeat pass 1: at step 2 pass 1 had "
                     "nothing more but pass 2 had kernel 'extra' in annotation 'k'"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("metric_replay 'checkpoint'"), std::string::npos) << msg;
}

TEST(SessionStrategiesTest, RangeReplayPushesOneRangePerAnnotationAndRestoresMemory) {
  Harness h("range", "checkpoint", 2);
  h.measured(RunId{0, 0, false}, [&] {
    h.annotate("a", [&] { h.launch("k1"); });
    h.annotate("b", [&] {
      h.launch("k2");
      h.launch("k3");
    });
  });
  EXPECT_EQ(without_config(h.events),
            (std::vector<std::string>{"save", "start", "push a", "pop", "push b", "pop", "stop",
                                      "restore", "start", "push a", "pop", "push b", "pop", "stop",
                                      "decode"}));
  const auto records = h.counters.take_records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].annotation, "a");
  EXPECT_EQ(records[1].annotation, "b");
  EXPECT_EQ(records[1].kernel, "range");
}

TEST(SessionStrategiesTest, SpanCoversMeasuredRunsAndClosesBeforeAWarmup) {
  Harness h("kernel", "checkpoint", 1);
  ASSERT_EQ(h.plan.scope, SessionScope::kSpan);
  const auto body = [&] { h.annotate("k", [&] { h.launch("kern"); }); };
  h.execute(RunId{0, 0, false}, 0, body);
  h.execute(RunId{0, 1, false}, 0, body);
  h.execute(RunId{1, 0, true}, 0, body);  // the next config's warm-up closes the span
  h.execute(RunId{1, 1, false}, 0, body);
  h.strategy->finish(false);
  EXPECT_EQ(without_config(h.events),
            (std::vector<std::string>{"start", "stop", "decode", "start", "stop", "decode"}));
  const auto records = h.counters.take_records();
  ASSERT_EQ(records.size(), 3u);  // the warm-up run's kernel is not profiled
  EXPECT_EQ(records[1].run.run, 1u);
  EXPECT_EQ(records[2].run.config, 1u);
}

TEST(SessionStrategiesTest, AnnotationSessionsProfileOnlyAnnotatedKernels) {
  Harness h("kernel", "kernel", 8);  // CUPTI's kernel replay: one Start..Stop per annotation
  ASSERT_EQ(h.plan.scope, SessionScope::kAnnotation);
  h.execute(RunId{0, 0, false}, 0, [&] {
    h.launch("outside");  // no session open: not profiled
    h.annotate("a", [&] { h.launch("k1"); });
    h.annotate("b", [&] { h.launch("k2"); });
  });
  EXPECT_EQ(h.events, (std::vector<std::string>{"set_config 16", "start", "stop", "decode",
                                                "set_config 16", "start", "stop", "decode"}));
  const auto records = h.counters.take_records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kernel, "k1");
  EXPECT_EQ(records[1].kernel, "k2");
  EXPECT_EQ(records[1].metrics[0].value, 1.0);  // the first range of its own batch
}

TEST(SessionStrategiesTest, ABatchNeedingMoreRangesThanTheProfilerHoldsReEnablesIt) {
  Harness h("kernel", "checkpoint", 1);
  const auto first = h.profiler.range_capacity();
  ASSERT_GT(first, 0u);
  h.counters.open(4 * first, RunId{0, 0, false});
  EXPECT_EQ(h.events[0], "reenable");
  EXPECT_EQ(h.events[1], "set_config " + std::to_string(8 * first));  // the new first session
  EXPECT_EQ(h.profiler.range_capacity(), 8 * first);
  EXPECT_EQ(h.counters.capacity(), 8 * first);  // a batch uses the whole capacity
}

// A kept profiler (KSCOPE_KEEP_COUNTERS_S): the next session's batch configures it with the
// counter data buffer it was set up with, not a new one (on the H200 an object configured with
// new buffers crashed the process).
TEST(SessionStrategiesTest, AKeptProfilersNextBatchUsesTheBufferItWasSetUpWith) {
  Harness h("kernel", "checkpoint", 1);
  h.counters.open(1, RunId{0, 0, false});
  const auto buffers = h.profiler.configured_buffers;
  ASSERT_NE(buffers.second, nullptr);
  h.counters.discard(false);
  h.counters.leave_images_with_profiler();
  CounterBatch next(h.profiler, h.evaluator,
                    CounterBatch::Setup{{}, {{"m"}, {"ns"}}, h.plan.user_range, h.plan.kernel_replay,
                                        h.plan.passes_per_run, 0},
                    h.logger);
  next.adopt_profiler_images();
  next.open(1, RunId{0, 1, false});
  EXPECT_EQ(h.profiler.configured_buffers, buffers);
  EXPECT_EQ(next.capacity(), h.profiler.range_capacity());
}

TEST(SessionStrategiesTest, AdoptingImagesAProfilerDoesNotHoldIsAToolError) {
  Harness h("kernel", "checkpoint", 1);
  const std::string text = error_text<ToolError>([&] { h.counters.adopt_profiler_images(); });
  EXPECT_TRUE(kscope::testing::contains(text, "The kept CUPTI range profiler holds no images for this metric set"))
      << text;
}

}  // namespace
}  // namespace kscope::cupti
