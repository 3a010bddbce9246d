// on_config_error "skip" on a real GPU: a config whose launch fails (an error later work
// survives) is recorded and the sweep goes on with correct timings; a kernel that faults leaves
// the device unusable and ends the sweep naming the config, with the configs before it kept in
// the journal. The fault is the last test: it loses this process's CUDA context.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"
#include "test_kernels.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;

Options skipping(const std::string& dir) {
  Options o;
  o.runs = 3;
  o.verbosity = Verbosity::kSilent;
  o.output_prefix = scratch_dir(dir);
  o.on_config_error = "skip";
  o.thermal.mode = "off";
  return o;
}

TEST(ConfigErrorsGpuTest, AFailedLaunchFailsItsConfigAndTheOthersAreMeasured) {
  const auto r = profile("launch_error", configs({20000, 0, 40000}, "ns"), [](const Config& c) {
    Annotation a("spin");
    const long long ns = c.get<long long>("ns");
    if (ns == 0) {
      const int error = launch_with_too_many_threads();
      throw std::runtime_error("launch failed with CUDA error " + std::to_string(error));
    }
    launch_spin(ns);
  }, skipping("launch_error"));
  ASSERT_EQ(r.failed_configs().size(), 1u);
  EXPECT_EQ(r.failed_configs()[0].config, 1u);
  EXPECT_EQ(r.failed_configs()[0].type, "std::runtime_error");
  const std::string message = r.failed_configs()[0].message;
  EXPECT_EQ(message.rfind("launch failed with CUDA error ", 0), 0u) << message;
  EXPECT_NE(message, "launch failed with CUDA error 0");
  ASSERT_EQ(r.processed().size(), 3u);
  EXPECT_NEAR(r.processed()[0].avg, 20000, 4000);
  EXPECT_TRUE(std::isnan(r.processed()[1].avg));
  EXPECT_EQ(r.processed()[1].error,
            "std::runtime_error: " + message + " (config 1, measured run 0)");
  EXPECT_NEAR(r.processed()[2].avg, 40000, 4000);
  EXPECT_EQ(r.processed()[2].num_runs, 3u);
}

// CUDA out of memory inside a config (a raw cudaMalloc of 4 TiB): with "skip" the config is
// recorded with the error's text and the later configs are measured right (OOM is not sticky);
// with "raise" the benchmark's exception propagates unchanged and the next profile() works.
void spin_or_oom(const Config& c) {
  Annotation a("spin");
  if (c.get<long long>("k") == 2) free_device(device_floats(std::size_t{1} << 40));
  launch_spin(20000);
}

TEST(ConfigErrorsGpuTest, OutOfMemoryWithSkipFailsItsConfigAndTheSweepGoesOn) {
  const auto r = profile("oom_skip", configs({1, 2, 3}, "k"), spin_or_oom, skipping("oom_skip"));
  ASSERT_EQ(r.failed_configs().size(), 1u);
  EXPECT_EQ(r.failed_configs()[0].config, 1u);
  EXPECT_EQ(r.failed_configs()[0].type, "std::runtime_error");
  EXPECT_EQ(r.failed_configs()[0].message, "cudaMalloc: out of memory");
  ASSERT_EQ(r.processed().size(), 3u);
  EXPECT_NEAR(r.processed()[0].avg, 20000, 4000);
  EXPECT_TRUE(std::isnan(r.processed()[1].avg));
  EXPECT_NEAR(r.processed()[2].avg, 20000, 4000);
  EXPECT_EQ(r.processed()[2].num_runs, 3u);
}

// What the benchmark left pending (a failed cudaMalloc nobody asked cudaGetLastError about) is
// the benchmark's: the cache flush before every region must neither report it as its own nor
// clear it.
TEST(ConfigErrorsGpuTest, AnErrorTheBenchmarkLeftPendingIsNotTheCacheFlushs) {
  Options o = skipping("pending_error");
  o.on_config_error = "raise";
  o.cache_control = "all";
  const auto r = profile("pending_error", configs({1, 2}, "k"), [](const Config&) {
    const int error = fail_a_malloc_and_leave_the_error_pending();
    ASSERT_NE(error, 0);
    Annotation a("spin");  // flushes the L2
    ASSERT_EQ(take_last_error(), error) << "the flush cleared the benchmark's pending error";
    launch_spin(20000);
  }, o);
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_NEAR(r.processed()[1].avg, 20000, 4000);
  EXPECT_EQ(r.processed()[1].num_runs, 3u);
}

TEST(ConfigErrorsGpuTest, OutOfMemoryWithRaisePropagatesUnchanged) {
  Options o = skipping("oom_raise");
  o.on_config_error = "raise";
  try {
    (void)profile("oom_raise", configs({1, 2, 3}, "k"), spin_or_oom, o);
    FAIL() << "expected the benchmark's std::runtime_error";
  } catch (const Error& e) {
    FAIL() << "a kscope error instead of the benchmark's: " << e.what();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cudaMalloc: out of memory");
  }
  const Results journal = Results::load(o.output_prefix + "journal-oom_raise-0.jsonl");
  ASSERT_EQ(journal.processed().size(), 1u);  // config 0
  const auto next = profile("oom_next", configs({1}, "k"), spin_or_oom, skipping("oom_next"));
  EXPECT_NEAR(next.processed()[0].avg, 20000, 4000);
}

TEST(ConfigErrorsGpuTest, ZLastAFaultingKernelEndsTheSweepAndKeepsTheConfigsBefore) {
  const Options o = skipping("fault");
  try {
    (void)profile("fault", configs({1, 2, 3}, "k"), [](const Config& c) {
      Annotation a("work");
      if (c.get<long long>("k") == 2) {
        launch_illegal_write();
        synchronize();  // throws: the kernel faulted
      }
      launch_spin(20000);
    }, o);
    FAIL() << "expected kscope::Error";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(text.rfind("config 1 (k=2) failed: std::runtime_error: ", 0), 0u) << text;
    EXPECT_NE(text.find("the CUDA context of this process is lost (a sticky error), which ends "
                        "the sweep even with on_config_error 'skip'"),
              std::string::npos) << text;
  }
  const Results journal = Results::load(o.output_prefix + "journal-fault-0.jsonl");
  EXPECT_FALSE(journal.complete());
  ASSERT_EQ(journal.processed().size(), 1u);  // config 0, all its runs
  EXPECT_EQ(journal.processed()[0].config, 0u);
  EXPECT_EQ(journal.processed()[0].num_runs, 3u);
}

}  // namespace
}  // namespace kscope
