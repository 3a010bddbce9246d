// The kept range profiler (KSCOPE_KEEP_COUNTERS_S): which session reuses it, when it is disabled,
// and the keep time's parsing. A fake object stands for CUPTI's (its destruction is the Disable).

#include "collect/cupti/kept_range_profiler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <thread>

#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope::cupti {
namespace {

using testing::contains;
using testing::error_text;

// Counts its Disables (destructions) and says on which thread the last one ran.
struct Disables {
  std::atomic<int> count{0};
  std::atomic<bool> on_caller{false};
};

class FakeObject : public RangeProfilerApi {
 public:
  explicit FakeObject(Disables& d) : d_(d), caller_(std::this_thread::get_id()) {}
  ~FakeObject() override {
    d_.on_caller = std::this_thread::get_id() == caller_;
    ++d_.count;
  }
  void start_session(Trace trace) override { has_trace = trace != nullptr; }
  void hold_images(Images) override {}
  Images take_images() override { return {}; }
  void set_tracing(bool) override {}
  std::size_t range_capacity() const override { return 32; }
  void reenable() override {}
  std::size_t counter_data_size(const std::vector<const char*>&, std::size_t) override { return 0; }
  void initialize_image(std::vector<std::uint8_t>&) override {}
  void set_config(const std::vector<std::uint8_t>&, std::vector<std::uint8_t>&, const Mode&) override {}
  void start() override {}
  StopResult stop() override { return {}; }
  void push_range(const std::string&) override {}
  void pop_range() override {}
  std::size_t decode() override { return 0; }
  std::size_t num_ranges(const std::vector<std::uint8_t>&) override { return 0; }
  std::string range_name(const std::vector<std::uint8_t>&, std::size_t) override { return {}; }
  const std::map<std::string, StepTime>& step_times() const override { return steps_; }

  bool has_trace = true;

 private:
  Disables& d_;
  std::thread::id caller_;
  std::map<std::string, StepTime> steps_;
};

ProfilerKey key(std::size_t ranges, std::uint8_t metric_set = 1) {
  static int context = 0;  // stands for a CUcontext
  return ProfilerKey{&context, false, false, ranges, {metric_set, 2, 3}};
}

class KeptRangeProfilerTest : public ::testing::Test {
 protected:
  void TearDown() override {
    release_range_profiler();
    unsetenv("KSCOPE_KEEP_COUNTERS_S");
  }
  Disables disables;
};

TEST_F(KeptRangeProfilerTest, TheNextSessionOfTheSameKeyReusesItWithoutTheOldTraceSink) {
  auto object = std::make_unique<FakeObject>(disables);
  FakeObject* raw = object.get();
  keep_range_profiler(std::move(object), key(32), 60);
  EXPECT_TRUE(range_profiler_kept());
  EXPECT_FALSE(raw->has_trace);  // the ended session's logger is not called while kept
  auto again = take_range_profiler(key(32));
  EXPECT_EQ(again.get(), raw);
  EXPECT_FALSE(range_profiler_kept());
  EXPECT_EQ(disables.count, 0);
}

TEST_F(KeptRangeProfilerTest, AnotherMetricSetOrShapeDisablesTheKeptOne) {
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(32, 1), 60);
  EXPECT_EQ(take_range_profiler(key(32, 2)), nullptr);  // another config image
  EXPECT_EQ(disables.count, 1);
  EXPECT_TRUE(disables.on_caller);
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(32), 60);
  EXPECT_EQ(take_range_profiler(key(64)), nullptr);  // another capacity
  EXPECT_EQ(disables.count, 2);
  EXPECT_FALSE(range_profiler_kept());
}

TEST_F(KeptRangeProfilerTest, KeepingAnotherReplacesTheFirst) {
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(32), 60);
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(64), 60);
  EXPECT_EQ(disables.count, 1);
  EXPECT_NE(take_range_profiler(key(64)), nullptr);
}

TEST_F(KeptRangeProfilerTest, TheKeeperDisablesItWhenTheTimeIsUp) {
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(32), 0.05);
  const auto t0 = std::chrono::steady_clock::now();
  while (range_profiler_kept() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(range_profiler_kept());
  EXPECT_EQ(disables.count, 1);
  EXPECT_FALSE(disables.on_caller);  // on the keeper's thread
  EXPECT_EQ(take_range_profiler(key(32)), nullptr);
}

TEST_F(KeptRangeProfilerTest, ReleaseDisablesItNowAndAKeepAfterItWorks) {
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(32), 60);
  release_range_profiler();
  EXPECT_EQ(disables.count, 1);
  EXPECT_TRUE(disables.on_caller);
  release_range_profiler();  // nothing kept: nothing happens
  EXPECT_EQ(disables.count, 1);
  keep_range_profiler(std::make_unique<FakeObject>(disables), key(32), 0.05);  // a new keeper thread
  const auto t0 = std::chrono::steady_clock::now();
  while (range_profiler_kept() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(disables.count, 2);
}

TEST_F(KeptRangeProfilerTest, KeepTimeComesFromTheEnvironment) {
  unsetenv("KSCOPE_KEEP_COUNTERS_S");
  EXPECT_EQ(keep_counters_seconds(), 0);
  setenv("KSCOPE_KEEP_COUNTERS_S", "", 1);
  EXPECT_EQ(keep_counters_seconds(), 0);
  setenv("KSCOPE_KEEP_COUNTERS_S", "2.5", 1);
  EXPECT_EQ(keep_counters_seconds(), 2.5);
  setenv("KSCOPE_KEEP_COUNTERS_S", "0", 1);
  EXPECT_EQ(keep_counters_seconds(), 0);
}

TEST_F(KeptRangeProfilerTest, ABadKeepTimeNamesTheValueAndWhatIsExpected) {
  for (const char* bad : {"ten", "-1", "5s", "inf", "nan"}) {
    setenv("KSCOPE_KEEP_COUNTERS_S", bad, 1);
    const std::string text = error_text<InvalidArgument>([] { (void)keep_counters_seconds(); });
    EXPECT_TRUE(contains(text, std::string("Invalid KSCOPE_KEEP_COUNTERS_S '") + bad + "'")) << text;
    EXPECT_TRUE(contains(text, "a number >= 0; 0 or unset: not kept")) << text;
  }
}

}  // namespace
}  // namespace kscope::cupti
