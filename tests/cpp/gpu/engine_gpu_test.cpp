// The engine with the cupti tool on a real GPU: attribution, kernel-count rules, failures,
// cache control and outputs. Ground truth: kernels of known duration (spin) and known count.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <thread>

#include "core/statistics.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"
#include "test_kernels.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;

Options quiet(int runs, const std::string& dir) {
  Options o;
  o.runs = runs;
  o.verbosity = Verbosity::kSilent;
  o.output_prefix = scratch_dir(dir);
  o.cache_control = "none";
  return o;
}

double avg_of(const Results& r, const std::string& annotation, std::size_t config,
              const std::string& metric = kTimeMetric) {
  for (const auto& p : r.processed()) {
    if (p.annotation == annotation && p.config == config && p.metric == metric) return p.avg;
  }
  ADD_FAILURE() << "no row for " << annotation << " config " << config << " " << metric;
  return NAN;
}

TEST(EngineGpuTest, SpinKernelDurationIsMeasured) {
  const auto r = profile("spin", configs({20000, 200000}, "ns"), [](const Config& c) {
    Annotation a("spin");
    launch_spin(c.get<long long>("ns"));
  }, quiet(5, "spin"));
  ASSERT_EQ(r.processed().size(), 2u);
  // The kernel spins on %globaltimer: its GPU duration is the requested time plus a few us.
  EXPECT_NEAR(avg_of(r, "spin", 0), 20000, 4000);
  EXPECT_NEAR(avg_of(r, "spin", 1), 200000, 6000);
  EXPECT_EQ(r.processed()[0].num_runs, 5u);
  EXPECT_EQ(r.processed()[0].unit, "ns");
  EXPECT_EQ(r.processed()[0].kernel, "kscope::testing::(anonymous namespace)::spin_kernel");
  EXPECT_EQ(r.raw().size(), 10u);
  EXPECT_FALSE(r.metadata().gpu.empty());
  EXPECT_GT(r.metadata().compute_clock, 0);
  EXPECT_EQ(r.metadata().tool, "cupti");
}

// The timeline (issue 20): every measured kernel has its GPU start and end on the host clock,
// inside its run: after its benchmark phase starts and before its synchronize phase ends (the
// CUPTI-to-host offset read when tracing starts; the kernel may still run while the run's
// staging happens between the two), and a stream; the journal keeps both.
TEST(EngineGpuTest, KernelTimesSitInsideTheirRunsBenchmarkPhase) {
  const auto r = profile("timeline", configs({20000, 100000}, "ns"), [](const Config& c) {
    Annotation a("spin");
    launch_spin(c.get<long long>("ns"));
  }, quiet(3, "timeline"));
  const auto& t = r.timeline();
  ASSERT_EQ(t.kernels.size(), 6u);
  for (const auto& k : t.kernels) {
    ASSERT_TRUE(k.stream.has_value());
    EXPECT_NEAR(static_cast<double>(k.end_ns - k.start_ns), k.config == 0 ? 20000 : 100000, 6000);
    std::optional<std::int64_t> run_start, run_end;
    for (const auto& p : t.phases) {
      if (p.config != k.config || p.run != k.run || p.warmup) continue;
      if (p.phase == "benchmark") run_start = p.start_ns;
      if (p.phase == "synchronize") run_end = p.end_ns;
    }
    ASSERT_TRUE(run_start && run_end) << "config " << k.config << " run " << k.run;
    // GPU work ends before synchronize returns; 20 us of slack for the clock offset.
    EXPECT_GE(k.start_ns + 20000, *run_start) << "config " << k.config << " run " << k.run;
    EXPECT_LE(k.end_ns, *run_end + 20000) << "config " << k.config << " run " << k.run;
  }
  const Results again = Results::load(r.journal_path());
  EXPECT_EQ(again.timeline().kernels.size(), 6u);
  EXPECT_EQ(again.timeline().phases.size(), t.phases.size());
}

TEST(EngineGpuTest, TwoAnnotationsPerRunAreSeparated) {
  const auto r = profile("two", configs({1}), [](const Config&) {
    { Annotation a("short"); launch_spin(10000); }
    launch_spin(50000);  // outside annotations: not measured
    { Annotation b("long"); launch_spin(100000); }
  }, quiet(3, "two"));
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_EQ(r.processed()[0].annotation, "short");
  EXPECT_NEAR(avg_of(r, "short", 0), 10000, 4000);
  EXPECT_NEAR(avg_of(r, "long", 0), 100000, 6000);
}

TEST(EngineGpuTest, KernelFromAWorkerThreadBelongsToTheOpenAnnotation) {
  const auto r = profile("worker", configs({1}), [](const Config&) {
    Annotation a("worker_thread");
    std::thread t([] { launch_spin(30000); });
    t.join();
  }, quiet(3, "worker"));
  ASSERT_EQ(r.processed().size(), 1u);
  EXPECT_EQ(r.processed()[0].annotation, "worker_thread");
  EXPECT_EQ(r.processed()[0].num_runs, 3u);
  EXPECT_NEAR(r.processed()[0].avg, 30000, 5000);
}

TEST(EngineGpuTest, NestedAndDuplicateAnnotationsFail) {
  EXPECT_THROW((void)profile("nested", configs({1}), [](const Config&) {
    Annotation a("outer");
    Annotation b("inner");
  }, quiet(1, "nested")), AnnotationError);
  EXPECT_THROW((void)profile("dup", configs({1}), [](const Config&) {
    { Annotation a("same"); launch_empty(); }
    { Annotation b("same"); launch_empty(); }
  }, quiet(1, "dup")), AnnotationError);
}

TEST(EngineGpuTest, TwoKernelsInOneAnnotationNeedCombineOrIgnore) {
  float* x = device_floats(1 << 20);
  auto fn = [x](const Config&) {
    Annotation a("pair");
    launch_fill(x, 1.0f, 1 << 20);
    launch_spin(20000);
  };
  try {
    (void)profile("pair", configs({1}), fn, quiet(2, "pair"));
    FAIL() << "expected ExtractionError";
  } catch (const ExtractionError& e) {
    EXPECT_NE(std::string(e.what()).find("More than one (total=2) kernel is launched within the pair annotation"),
              std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("fill_kernel"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("spin_kernel"), std::string::npos);
  }
  Options combined = quiet(2, "pair_combined");
  combined.combine_kernel_metrics = [](double a, double b) { return a + b; };
  const auto rc = profile("pair", configs({1}), fn, combined);
  EXPECT_EQ(rc.processed()[0].kernel,
            "kscope::testing::(anonymous namespace)::fill_kernel|"
            "kscope::testing::(anonymous namespace)::spin_kernel");
  EXPECT_GT(rc.processed()[0].avg, 20000);

  Options ignoring = quiet(2, "pair_ignored");
  ignoring.ignore_kernel_list = {"fill_kernel"};
  const auto ri = profile("pair", configs({1}), fn, ignoring);
  EXPECT_EQ(ri.processed()[0].kernel, "kscope::testing::(anonymous namespace)::spin_kernel");
  EXPECT_NEAR(ri.processed()[0].avg, 20000, 4000);
  free_device(x);
}

TEST(EngineGpuTest, ExceptionInTheBenchmarkPropagatesAndTheJournalKeepsFinishedRuns) {
  Options o = quiet(2, "failing");
  std::string journal;
  try {
    (void)profile("failing", configs({1, 2, 3}), [](const Config& c) {
      Annotation a("k");
      launch_spin(10000);
      if (c.index() == 2) throw std::runtime_error("bug in config 2");
    }, o);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "bug in config 2");
  }
  for (const auto& f : std::filesystem::directory_iterator(o.output_prefix)) {
    if (f.path().extension() == ".jsonl") journal = f.path().string();
  }
  ASSERT_FALSE(journal.empty());
  const Results r = Results::load(journal);
  EXPECT_FALSE(r.complete());
  ASSERT_EQ(r.processed().size(), 2u);  // configs 0 and 1 survived
  EXPECT_EQ(r.processed()[1].num_runs, 2u);
}

TEST(EngineGpuTest, FailedRunInsideAnnotationIsNaN) {
  int call = 0;
  const auto r = profile("ignored", configs({1}), [&](const Config&) {
    annotate("k", [&] {
      launch_spin(10000);
      if (call++ == 1) throw std::runtime_error("flaky");
    }, /*ignore_failures=*/true);
  }, quiet(3, "ignored"));
  ASSERT_EQ(r.raw().size(), 3u);
  EXPECT_TRUE(std::isnan(r.raw()[1].value));
  EXPECT_EQ(r.processed()[0].num_runs, 2u);
}

TEST(EngineGpuTest, NoKernelInAnnotationIsAnError) {
  try {
    (void)profile("nothing", configs({1}), [](const Config&) { Annotation a("empty"); }, quiet(1, "nothing"));
    FAIL();
  } catch (const ExtractionError& e) {
    EXPECT_NE(std::string(e.what()).find("No kernels were profiled in annotation 'empty'"), std::string::npos);
  }
}

TEST(EngineGpuTest, WarmupRunsAreNotMeasured) {
  int calls = 0;
  Options o = quiet(2, "warmup");
  o.warmup_runs = 3;
  const auto r = profile("warmup", configs({1}), [&](const Config&) {
    ++calls;
    Annotation a("k");
    launch_spin(5000);
  }, o);
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(r.processed()[0].num_runs, 2u);
}

TEST(EngineGpuTest, FlushedRunsAreNotFasterThanWarmOnes) {
  // 2 x L2 (= 120 MiB on an H200) read per run, plus a 16 MiB buffer that fits in L2.
  const std::size_t big = (2 * 60u << 20) / sizeof(float) * 2, small = (16u << 20) / sizeof(float);
  float* x = device_floats(big);
  launch_fill(x, 1.5f, big);
  float* out = device_floats(1);
  auto fn = [&](const Config& c) {
    const std::size_t n = c.get<std::int64_t>(0);
    launch_read_sum(x, n, out);  // warms L2 with this buffer
    Annotation a("read");
    launch_read_sum(x, n, out);
  };
  Options cold = quiet(20, "flush_all");
  cold.cache_control = "all";
  Options warm = quiet(20, "flush_none");
  const auto rc = profile("flush", configs({static_cast<long long>(big), static_cast<long long>(small)}), fn, cold);
  const auto rw = profile("flush", configs({static_cast<long long>(big), static_cast<long long>(small)}), fn, warm);
  std::vector<double> cold_big, warm_big, cold_small, warm_small;
  for (const auto& row : rc.raw()) (row.config == 0 ? cold_big : cold_small).push_back(row.value);
  for (const auto& row : rw.raw()) (row.config == 0 ? warm_big : warm_small).push_back(row.value);
  const double cb = stats::median(cold_big), wb = stats::median(warm_big);
  const double cs = stats::median(cold_small), ws = stats::median(warm_small);
  std::printf("read 2xL2: flushed %.0f ns, warm %.0f ns; read 16 MiB: flushed %.0f ns, warm %.0f ns\n", cb, wb, cs, ws);
  EXPECT_GE(cb, 0.98 * wb);
  EXPECT_GT(cs, 1.05 * ws) << "a buffer that fits in L2 must be slower to read after a flush";
  free_device(x);
  free_device(out);
}

TEST(EngineGpuTest, OutputsCsvJsonAndJournal) {
  Options o = quiet(2, "outputs");
  o.output_csv = true;
  const auto r = profile("outputs", configs({1}), [](const Config&) {
    Annotation a("k");
    launch_spin(5000);
  }, o);
  const std::string tag = "outputs-" + std::to_string(r.id());
  EXPECT_TRUE(std::filesystem::exists(o.output_prefix + "profiled_data-" + tag + ".csv"));
  EXPECT_TRUE(std::filesystem::exists(o.output_prefix + "processed_data-" + tag + ".csv"));
  EXPECT_TRUE(std::filesystem::exists(r.journal_path()));
  r.write_json(o.output_prefix + "r.json");
  const auto back = Results::load(o.output_prefix + "r.json");
  EXPECT_DOUBLE_EQ(back.processed()[0].avg, r.processed()[0].avg);
  const auto from_journal = Results::load(r.journal_path());
  EXPECT_TRUE(from_journal.complete());
  EXPECT_DOUBLE_EQ(from_journal.processed()[0].avg, r.processed()[0].avg);
}

TEST(EngineGpuTest, CallCounterAdvancesPerName) {
  auto fn = [](const Config&) { Annotation a("k"); launch_empty(); };
  const auto a = profile("counter", configs({1}), fn, quiet(1, "counter"));
  const auto b = profile("counter", configs({1}), fn, quiet(1, "counter2"));
  EXPECT_EQ(b.id(), a.id() + 1);
}

// CUPTI stays subscribed between profile() calls (issue 19): kernels launched between two sessions
// are nobody's, each session sees exactly its own, and after release() the next session
// subscribes again; the second call of a process costs far less than the first.
TEST(EngineGpuTest, CuptiStaysBetweenSessionsAndReleaseGivesItUp) {
  auto fn = [](const Config& c) {
    Annotation a("spin");
    launch_spin(c.get<long long>("ns"));
  };
  const auto t0 = std::chrono::steady_clock::now();
  const auto first = profile("resident", configs({20000}, "ns"), fn, quiet(3, "resident1"));
  const auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) launch_spin(5000);  // between sessions: recorded by no one
  cudaDeviceSynchronize();
  const auto second = profile("resident", configs({20000}, "ns"), fn, quiet(3, "resident2"));
  const auto t2 = std::chrono::steady_clock::now();
  release();
  release();  // twice: nothing left the second time
  const auto third = profile("resident", configs({40000}, "ns"), fn, quiet(3, "resident3"));
  for (const Results* r : {&first, &second, &third}) {
    EXPECT_EQ(r->raw().size(), 3u);
    EXPECT_EQ(r->processed().size(), 1u);
  }
  EXPECT_NEAR(avg_of(second, "spin", 0), 20000, 4000);
  EXPECT_NEAR(avg_of(third, "spin", 0), 40000, 4000);
  const double first_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double second_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  std::printf("[resident] first profile() %.1f ms, second %.1f ms (50 launches between)\n", first_ms,
              second_ms);
}

// cuda_graph in C++: the first measured run captures the two regions on the test's stream and
// launches them, later runs replay them (the benchmark runs in warm-up and capture only); the
// replayed kernels are timed and attributed like launched ones.
TEST(EngineGpuTest, CudaGraphReplaysTheCapturedRegions) {
  CUstream_st* stream = new_stream();
  int calls = 0;
  auto fn = [&](const Config& c) {
    ++calls;
    {
      Annotation a("spin");
      launch_spin_on(c.get<long long>("ns"), stream);
    }
    {
      Annotation b("two");
      launch_spin_on(5000, stream);
      launch_empty_on(stream);
    }
  };
  Options o = quiet(10, "cuda_graph");
  o.warmup_runs = 1;
  o.cuda_graph = true;
  o.region_capture = stream_region_capture(stream);
  o.combine_kernel_metrics = [](double x, double y) { return x + y; };
  const Results graphs = profile("graphs", configs({20000, 40000}, "ns"), fn, o);
  EXPECT_EQ(calls, 4);  // per config: the warm-up run and the capturing run
  o.cuda_graph = false;
  calls = 0;
  const Results eager = profile("eager", configs({20000, 40000}, "ns"), fn, o);
  EXPECT_EQ(calls, 22);
  for (std::size_t c = 0; c < 2; ++c) {
    const double ns = c == 0 ? 20000 : 40000;
    EXPECT_NEAR(avg_of(graphs, "spin", c), ns, 0.1 * ns);
    EXPECT_NEAR(avg_of(graphs, "spin", c), avg_of(eager, "spin", c), 0.05 * ns);
    EXPECT_NEAR(avg_of(graphs, "two", c), avg_of(eager, "two", c), 1000);
    std::printf("[cuda_graph] config %zu: spin graph %.0f ns, eager %.0f ns; two graph %.0f ns, "
                "eager %.0f ns\n",
                c, avg_of(graphs, "spin", c), avg_of(eager, "spin", c), avg_of(graphs, "two", c),
                avg_of(eager, "two", c));
  }
  for (const auto& row : graphs.processed()) EXPECT_EQ(row.num_runs, 10u) << row.annotation;
  destroy_stream(stream);
}

}  // namespace
}  // namespace kscope
