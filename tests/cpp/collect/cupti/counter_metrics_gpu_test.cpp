// Hardware counters with the cupti tool on a real GPU, against ground truth: bytes a kernel
// reads, FFMAs an FFMA loop executes, memory an in-place kernel leaves behind, and the number of
// times user replay executes the benchmark. Prints the measured values for the GPU log.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "counter_kernels.hpp"
#include "cuda/device.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;

constexpr const char* kDram = "dram__bytes_read.sum";
constexpr const char* kSmThroughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";  // 8 passes
constexpr const char* kFfma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";

Options counters(std::vector<std::string> metrics, const std::string& dir, int runs = 2) {
  Options o;
  o.runs = runs;
  o.metrics = std::move(metrics);
  o.verbosity = Verbosity::kSilent;
  o.output_prefix = scratch_dir(dir);
  return o;
}

const ProcessedRow& row(const Results& r, const std::string& annotation, const std::string& metric,
                        std::size_t config = 0) {
  for (const auto& p : r.processed()) {
    if (p.annotation == annotation && p.metric == metric && p.config == config) {
      std::printf("  %-10s %-52s config %zu: avg %.6g %s (min %.6g, max %.6g, %zu runs, kernel %s)\n",
                  annotation.c_str(), metric.c_str(), config, p.avg, p.unit.value_or("").c_str(),
                  p.min, p.max, p.num_runs, p.kernel.c_str());
      return p;
    }
  }
  static ProcessedRow missing;
  ADD_FAILURE() << "no row for " << annotation << " / " << metric;
  return missing;
}

// A buffer at least twice the L2 size, so that a cold read comes from DRAM.
struct BigBuffer {
  BigBuffer() : bytes(std::max<std::size_t>(256u << 20, 4 * l2_bytes()) / 16 * 16) {
    data = device_zeroed(bytes);
    sink = static_cast<float*>(device_zeroed(64));
  }
  ~BigBuffer() {
    device_free(data);
    device_free(sink);
  }
  std::size_t bytes;
  void* data;
  float* sink;
};

TEST(CounterMetricsGpuTest, DramBytesOfAKnownReadWithinOnePercent) {
  BigBuffer buf;
  auto opt = counters({kTimeMetric, kDram}, "dram", 3);  // one pass: collected without replay
  const auto r = profile("dram", configs({1}), [&](const Config&) {
    Annotation a("read");
    launch_read(buf.data, buf.bytes, buf.sink);
  }, opt);
  const auto bytes = row(r, "read", kDram);
  EXPECT_NEAR(bytes.avg, static_cast<double>(buf.bytes), 0.01 * static_cast<double>(buf.bytes));
  EXPECT_NEAR(bytes.min, static_cast<double>(buf.bytes), 0.01 * static_cast<double>(buf.bytes));
  EXPECT_EQ(bytes.unit, "byte");
  EXPECT_EQ(bytes.num_runs, 3u);
  EXPECT_EQ(bytes.kernel, "kscope::testing::(anonymous namespace)::read_kernel");
  const auto t = row(r, "read", kTimeMetric);
  EXPECT_GT(t.avg, 1000);
  EXPECT_EQ(t.unit, "ns");
}

TEST(CounterMetricsGpuTest, FfmaCountIsExact) {
  const int blocks = 528, threads = 256, iters = 1000;
  const double expected = 2.0 * blocks * threads * iters;  // 270,336,000
  auto* out = static_cast<float*>(device_zeroed(sizeof(float) * blocks * threads));
  for (const auto& metrics : {std::vector<std::string>{kFfma},                 // one pass
                              std::vector<std::string>{kTimeMetric, kFfma}}) {  // two: kernel replay
    const auto r = profile("ffma", configs({iters}), [&](const Config& c) {
      Annotation a("ffma");
      launch_ffma(out, blocks, threads, c.get<int>(0));
    }, counters(metrics, "ffma"));
    const auto f = row(r, "ffma", kFfma);
    EXPECT_EQ(f.min, expected);
    EXPECT_EQ(f.max, expected);
    EXPECT_EQ(f.unit, "inst");
  }
  device_free(out);
}

TEST(CounterMetricsGpuTest, CheckpointAndKernelReplayRestoreMemory) {
  const std::size_t n = 1 << 20;
  for (const char* replay : {"checkpoint", "kernel"}) {
    auto* p = static_cast<int*>(device_zeroed(n * sizeof(int)));
    auto opt = counters({kTimeMetric, kSmThroughput}, std::string("restore_") + replay, 2);  // 8 passes
    opt.metric_replay = replay;
    opt.warmup_runs = 1;
    int calls = 0;
    const auto r = profile("restore", configs({1}), [&](const Config&) {
      ++calls;
      launch_increment(p, n);  // outside the annotation: restored too (checkpoint)
      Annotation a("incr");
      launch_increment(p, n);
    }, opt);
    // checkpoint: warm-up once, each measured run once per pass; kernel: CUPTI replays kernels.
    EXPECT_EQ(calls, std::string(replay) == "checkpoint" ? 1 + 2 * 8 : 3) << replay;
    // One warm-up and two measured executions, each +2: every replay pass was undone.
    EXPECT_EQ(read_int(p, 0), 6) << replay;
    EXPECT_EQ(read_int(p, n - 1), 6) << replay;
    const auto sm = row(r, "incr", kSmThroughput);
    EXPECT_GT(sm.avg, 0);
    EXPECT_LE(sm.avg, 100);
    EXPECT_EQ(sm.unit, "%");
    EXPECT_EQ(sm.num_runs, 2u);
    device_free(p);
  }
}

TEST(CounterMetricsGpuTest, ApplicationReplayExecutesEachRunOncePerPass) {
  const std::size_t n = 1 << 20;
  auto* p = static_cast<int*>(device_zeroed(n * sizeof(int)));
  auto opt = counters({kTimeMetric, kSmThroughput}, "application", 2);
  opt.metric_replay = "application";
  opt.warmup_runs = 1;
  int calls = 0;
  const auto r = profile("application", configs({1}), [&](const Config&) {
    ++calls;
    launch_increment(p, n);  // outside the annotation: profiled in application replay, dropped
    Annotation a("incr");
    launch_increment(p, n);
  }, opt);
  EXPECT_EQ(calls, 1 + 2 * 8);        // warm-up once, each measured run once per pass
  EXPECT_EQ(read_int(p, 0), 2 * 17);  // nothing is restored: the benchmark must be idempotent
  const auto sm = row(r, "incr", kSmThroughput);
  EXPECT_GT(sm.avg, 0);
  EXPECT_EQ(sm.num_runs, 2u);
  device_free(p);
}

TEST(CounterMetricsGpuTest, ApplicationAndKernelReplayAgreeOnAnIdempotentKernel) {
  BigBuffer buf;
  double values[2][2] = {};
  int i = 0;
  for (const char* replay : {"checkpoint", "application"}) {
    auto opt = counters({kDram, kSmThroughput}, std::string("agree_") + replay, 3);
    opt.metric_replay = replay;
    const auto r = profile("agree", configs({1}), [&](const Config&) {
      Annotation a("read");
      launch_read(buf.data, buf.bytes, buf.sink);
    }, opt);
    values[i][0] = row(r, "read", kDram).avg;
    values[i][1] = row(r, "read", kSmThroughput).avg;
    ++i;
  }
  EXPECT_NEAR(values[1][0], values[0][0], 0.01 * values[0][0]);
  EXPECT_NEAR(values[1][1], values[0][1], std::max(1.0, 0.05 * values[0][1]));
}

// cache_control "all" flushes at every region's entry and before every later kernel of a region:
// a region whose input the benchmark wrote right before it, the second of two regions reading
// the same data, and the second kernel of a region reading it again all read it from DRAM (as
// under ncu, which flushes before every kernel). Before, the flush came once per run and both
// regions read a buffer that fits the L2 from the L2; with the entry flush alone (now "region")
// the second kernel of "twice" read 0.5 % of it.
TEST(CounterMetricsGpuTest, EveryRegionStartsColdAfterInputsWrittenRightBeforeIt) {
  const std::size_t bytes = std::min<std::size_t>(32u << 20, l2_bytes() / 2) / 16 * 16;
  void* input = device_zeroed(bytes);
  auto* sink = static_cast<float*>(device_zeroed(64));
  const auto r = profile("regions", configs({1}), [&](const Config&) {
    launch_increment(static_cast<int*>(input), bytes / sizeof(int));  // the inputs, just written
    {
      Annotation a("first");
      launch_read(input, bytes, sink);
    }
    {
      Annotation b("second");
      launch_read(input, bytes, sink);
    }
    Annotation c("twice");
    launch_read(input, bytes, sink);
    launch_read(input, bytes, sink);
  }, [&] {
    auto o = counters({kTimeMetric, kDram}, "regions", 3);
    o.combine_kernel_metrics = [](double, double second) { return second; };  // the 2nd kernel
    return o;
  }());
  const double want = static_cast<double>(bytes);
  EXPECT_NEAR(row(r, "first", kDram).min, want, 0.01 * want);
  EXPECT_NEAR(row(r, "first", kDram).max, want, 0.01 * want);
  EXPECT_NEAR(row(r, "second", kDram).min, want, 0.01 * want);
  EXPECT_NEAR(row(r, "second", kDram).max, want, 0.01 * want);
  // The flush between the two kernels of one region: the second reads it all again.
  EXPECT_NEAR(row(r, "twice", kDram).min, want, 0.01 * want);
  EXPECT_NEAR(row(r, "twice", kDram).max, want, 0.01 * want);
  device_free(input);
  device_free(sink);
}

// The flush between two kernels is neither attributed to the region nor inside a kernel's
// range, in the counter path (the discard kernel takes an auto range of its own, dropped) and
// the timing path (activity records): a region of three reads of a buffer that fits the L2
// reads it from DRAM three times, its kernel count stays three, and the reads take as long as
// the first. cache_control "region" keeps the entry flush alone: the later kernels find the
// lines in the L2.
TEST(CounterMetricsGpuTest, EveryKernelOfARegionStartsColdWithCacheControlAll) {
  const std::size_t bytes = std::min<std::size_t>(32u << 20, l2_bytes() / 2) / 16 * 16;
  void* input = device_zeroed(bytes);
  auto* sink = static_cast<float*>(device_zeroed(64));
  const Benchmark three_reads = [&](const Config&) {
    Annotation a("thrice");
    for (int k = 0; k < 3; ++k) launch_read(input, bytes, sink);
  };
  auto options = [](const std::string& cache, std::vector<std::string> metrics, const char* dir) {
    auto o = counters(std::move(metrics), dir, 3);
    o.cache_control = cache;
    o.combine_kernel_metrics = [](double a, double b) { return a + b; };
    return o;
  };
  const double want = 3.0 * static_cast<double>(bytes);
  const auto all = profile("thrice", configs({1}), three_reads, options("all", {kTimeMetric, kDram}, "thrice_all"));
  EXPECT_NEAR(row(all, "thrice", kDram).min, want, 0.01 * want);
  EXPECT_NEAR(row(all, "thrice", kDram).max, want, 0.01 * want);
  EXPECT_EQ(row(all, "thrice", kDram).kernel.find("discard"), std::string::npos);
  const auto region =
      profile("thrice", configs({1}), three_reads, options("region", {kTimeMetric, kDram}, "thrice_region"));
  EXPECT_LT(row(region, "thrice", kDram).max, 0.5 * want);  // two of three reads hit the L2
  EXPECT_GT(row(all, "thrice", kTimeMetric).avg, row(region, "thrice", kTimeMetric).avg);

  // Activity durations: every record of the region is one of its three reads.
  const auto timed = profile("thrice", configs({1}), three_reads, options("all", {kTimeMetric}, "thrice_timed"));
  const auto timed_region =
      profile("thrice", configs({1}), three_reads, options("region", {kTimeMetric}, "thrice_timed_region"));
  std::size_t records = 0;
  for (const auto& raw : timed.raw()) {
    if (raw.metric == kTimeMetric) ++records;
  }
  EXPECT_EQ(records, 3u);  // one combined value per run
  EXPECT_EQ(row(timed, "thrice", kTimeMetric).kernel.find("discard"), std::string::npos);
  EXPECT_GT(row(timed, "thrice", kTimeMetric).avg, 1.2 * row(timed_region, "thrice", kTimeMetric).avg);
  device_free(input);
  device_free(sink);
}

// Run 0 of a sweep is as cold as every other run: a read of 4 x L2 bytes reads exactly that
// from DRAM in every run (it read 1.42 % less in run 0 when the flush came before the CUPTI
// session's Start rather than at the region's entry).
TEST(CounterMetricsGpuTest, RunZeroIsAsColdAsTheOthers) {
  const std::size_t bytes = 4 * l2_bytes() / 16 * 16;
  void* data = device_zeroed(bytes);
  auto* sink = static_cast<float*>(device_zeroed(64));
  const auto r = profile("run0", configs({1}), [&](const Config&) {
    Annotation a("read");
    launch_read(data, bytes, sink);
  }, counters({kTimeMetric, kDram}, "run0", 3));
  const double want = static_cast<double>(bytes);
  int checked = 0;
  for (const auto& raw : r.raw()) {
    if (raw.metric != kDram) continue;
    std::printf("  run %zu: %.0f bytes (%+.3f %% of 4 x L2)\n", raw.run, raw.value,
                100.0 * (raw.value - want) / want);
    EXPECT_NEAR(raw.value, want, 0.001 * want) << "run " << raw.run;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
  device_free(data);
  device_free(sink);
}

TEST(CounterMetricsGpuTest, DurationComesFromTheProfiledExecution) {
  for (const auto& metrics : {std::vector<std::string>{kTimeMetric, kDram},
                              std::vector<std::string>{kTimeMetric, kSmThroughput}}) {
    const auto r = profile("spin", configs({100000}), [&](const Config& c) {
      Annotation a("spin");
      launch_spin_ns(c.get<long long>(0));
    }, counters(metrics, "spin", 3));
    const auto t = row(r, "spin", kTimeMetric);
    EXPECT_NEAR(t.avg, 100000, 6000);
    EXPECT_EQ(t.unit, "ns");
  }
}

TEST(CounterMetricsGpuTest, OnlyAnnotatedKernelsAreAttributedInLaunchOrder) {
  BigBuffer buf;
  const std::size_t small = buf.bytes / 2;
  auto opt = counters({kDram}, "order", 2);
  opt.combine_kernel_metrics = [](double a, double b) { return a + b; };
  const auto r = profile(
      "order", configs({1}),
      [&](const Config&) {
        launch_read(buf.data, buf.bytes, buf.sink);  // outside: profiled by the span, dropped
        {
          Annotation a("small");
          launch_read(buf.data, small, buf.sink);
        }
        launch_read(buf.data, buf.bytes, buf.sink);  // outside: profiled by the span, dropped
        {
          Annotation b("both");
          launch_read(buf.data, small, buf.sink);
          launch_read(buf.data, buf.bytes, buf.sink);
        }
      },
      opt);
  // The second kernel of "both" runs after the first one touched half the buffer, so its reads
  // may partly hit L2: only the first annotation is an exact count.
  EXPECT_NEAR(row(r, "small", kDram).avg, static_cast<double>(small), 0.01 * static_cast<double>(small));
  const double both = row(r, "both", kDram).avg;
  EXPECT_GT(both, static_cast<double>(buf.bytes) * 0.99);
  EXPECT_LT(both, static_cast<double>(buf.bytes + small) * 1.01);
  EXPECT_EQ(row(r, "both", kDram).kernel,
            "kscope::testing::(anonymous namespace)::read_kernel|kscope::testing::(anonymous namespace)::read_kernel");
}

TEST(CounterMetricsGpuTest, RangeReplayMeasuresATwoKernelRegion) {
  BigBuffer buf;
  const std::size_t half = buf.bytes / 2 / 16 * 16;
  for (const auto& metrics : {std::vector<std::string>{kTimeMetric, kDram},
                              std::vector<std::string>{kTimeMetric, kDram, kSmThroughput}}) {
    auto opt = counters(metrics, "range", 2);
    opt.replay_mode = "range";
    int calls = 0;
    const auto r = profile("range", configs({1}), [&](const Config&) {
      ++calls;
      Annotation a("pair");
      launch_read(buf.data, half, buf.sink);
      launch_read(static_cast<char*>(buf.data) + half, buf.bytes - half, buf.sink);
    }, opt);
    EXPECT_EQ(calls, metrics.size() == 2 ? 2 : 2 * 8);
    const auto bytes = row(r, "pair", kDram);
    EXPECT_NEAR(bytes.avg, static_cast<double>(buf.bytes), 0.01 * static_cast<double>(buf.bytes));
    EXPECT_EQ(bytes.kernel, "range");
    EXPECT_GT(row(r, "pair", kTimeMetric).avg, 0);
  }
}

TEST(CounterMetricsGpuTest, RangeReplayOfAGraphLaunch) {
  BigBuffer buf;
  ReadGraph graph(buf.data, buf.bytes, buf.sink);
  auto opt = counters({kDram}, "range_graph", 1);
  opt.replay_mode = "range";
  const auto r = profile("range_graph", configs({1}), [&](const Config&) {
    Annotation a("graph");
    graph.launch();
  }, opt);
  EXPECT_NEAR(row(r, "graph", kDram).avg, static_cast<double>(buf.bytes),
              0.01 * static_cast<double>(buf.bytes));
}

TEST(CounterMetricsGpuTest, NonIdempotentRegionIsDetected) {
  for (const char* mode : {"range", "application", "checkpoint"}) {
    auto opt = counters({kSmThroughput}, std::string("flaky_") + mode, 1);
    if (std::string(mode) == "range") opt.replay_mode = "range";
    else opt.metric_replay = mode;
    int calls = 0;
    try {
      (void)profile("flaky", configs({1}), [&](const Config&) {
        Annotation a("flaky");
        launch_spin_ns(1000);
        if (++calls % 2 == 0) launch_spin_ns(1000);  // a second kernel every other execution
      }, opt);
      ADD_FAILURE() << mode << ": no error";
    } catch (const ToolError& e) {
      std::printf("  %s: %s\n", mode, e.what());
      EXPECT_NE(std::string(e.what()).find("did not repeat pass 1"), std::string::npos) << e.what();
    }
  }
}

TEST(CounterMetricsGpuTest, GraphLaunchInKernelModeIsRejected) {
  BigBuffer buf;
  ReadGraph graph(buf.data, buf.bytes, buf.sink);
  try {
    (void)profile("graph", configs({1}), [&](const Config&) {
      Annotation a("graph");
      graph.launch();
    }, counters({kDram}, "graph", 1));
    ADD_FAILURE() << "no error";
  } catch (const NotSupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA graph"), std::string::npos) << e.what();
  }
}

// The batching modes of one-pass sets (KSCOPE_CUPTI_BATCH): a session per annotation (the
// fallback), sessions per annotation decoded once per run, and the default: one session spanning
// many runs. Values agree; the span needs far fewer CUPTI Start/Stop pairs (~13 ms each).
TEST(CounterMetricsGpuTest, BatchingModesAgreeAndTheSpanIsCheapest) {
  BigBuffer buf;
  const std::size_t small = 8u << 20;
  struct Outcome {
    Results results;
    double seconds = 0;
    std::string cost;
  };
  auto sweep = [&](const char* batch) {
    if (batch)
      setenv("KSCOPE_CUPTI_BATCH", batch, 1);
    else
      unsetenv("KSCOPE_CUPTI_BATCH");
    auto opt =
        counters({kTimeMetric, kDram}, std::string("batch_") + (batch ? batch : "default"), 50);
    opt.cache_control = "none";
    Outcome out;
    opt.verbosity = Verbosity::kDebug;
    opt.log = [&out](std::string_view text) {
      const std::string t(text);
      if (t.find("cupti metrics cost: ") != std::string::npos) out.cost = t.substr(0, t.find('\n'));
    };
    const auto t0 = std::chrono::steady_clock::now();
    out.results = profile(
        "batch", configs({1}),
        [&](const Config&) {
          for (const char* name : {"a", "b", "c", "d"}) {
            Annotation a(name);
            launch_read(buf.data, small, buf.sink);
          }
        },
        opt);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    unsetenv("KSCOPE_CUPTI_BATCH");
    return out;
  };
  const auto per_annotation = sweep("annotation");
  const auto per_run = sweep("run");
  const auto span = sweep(nullptr);
  std::printf(
      "  FINDING batching: 200 kernels (50 runs x 4 annotations): a session per annotation "
      "%.3f s, decoded per run %.3f s, one span (default) %.3f s\n",
      per_annotation.seconds, per_run.seconds, span.seconds);
  for (const auto* o : {&per_annotation, &per_run, &span}) std::printf("    %s\n", o->cost.c_str());
  for (const char* name : {"a", "b", "c", "d"}) {
    const double x = row(per_annotation.results, name, kTimeMetric).avg;
    EXPECT_NEAR(row(per_run.results, name, kTimeMetric).avg, x, 0.1 * x) << name;
    EXPECT_NEAR(row(span.results, name, kTimeMetric).avg, x, 0.1 * x) << name;
    // cache_control "none": the buffer stays in the L2 between runs, so DRAM reads are near 0
    // in every mode; the modes must agree (within 2 % of the buffer size).
    EXPECT_NEAR(row(span.results, name, kDram).avg, row(per_annotation.results, name, kDram).avg,
                0.02 * static_cast<double>(small))
        << name;
    EXPECT_EQ(row(span.results, name, kDram).num_runs, 50u) << name;
  }
  EXPECT_LT(span.seconds, 0.5 * per_annotation.seconds);
}

// Spans over several configs with warm-up runs (the span is closed before them), unannotated
// kernels and the cache flush between runs (profiled, never attributed), restarted when the
// image fills (128 ranges for 300 measured runs; 3 launches per run here: the flush, one outside
// and one inside the annotation; 100 measured runs per config). The DEBUG summary tells the
// sessions.
TEST(CounterMetricsGpuTest, SpanOverManyRunsAttributesEveryRun) {
  BigBuffer buf;
  const std::size_t small = 4u << 20;
  auto opt = counters({kTimeMetric, kDram}, "span_many", 100);
  opt.warmup_runs = 1;
  std::string cost;
  opt.verbosity = Verbosity::kDebug;
  opt.log = [&cost](std::string_view text) {
    const std::string t(text);
    if (t.find("cupti metrics cost: ") != std::string::npos) cost = t.substr(0, t.find('\n'));
  };
  const auto r = profile(
      "span", configs({1, 2, 3}),
      [&](const Config& c) {
        // Outside: profiled, dropped. Another part of the buffer, so the measured read stays cold.
        launch_read(static_cast<char*>(buf.data) + buf.bytes / 2, small, buf.sink);
        Annotation a("read");
        launch_read(buf.data, small * static_cast<std::size_t>(c.get<int>(0)), buf.sink);
      },
      opt);
  for (std::size_t config = 0; config < 3; ++config) {
    const auto bytes = row(r, "read", kDram, config);
    const double expected = static_cast<double>(small * (config + 1));
    EXPECT_NEAR(bytes.min, expected, 0.02 * expected) << config;
    EXPECT_NEAR(bytes.max, expected, 0.02 * expected) << config;
    EXPECT_EQ(bytes.num_runs, 100u) << config;
  }
  std::printf("    %s\n", cost.c_str());
  EXPECT_NE(cost.find("300 attributed to annotations"), std::string::npos) << cost;
}

// 60 kernels in one annotation, each reading its own 1 MiB chunk once after the flush (every
// byte comes from DRAM), summed into one value per run: more kernels than a first session sized
// for a one- or two-run sweep holds.
struct ChunkReads {
  static constexpr int kKernels = 60;
  static constexpr std::size_t kChunk = 1u << 20;
  Benchmark bench() {
    return [this](const Config&) {
      Annotation a("reads");
      for (int k = 0; k < kKernels; ++k)
        launch_read(static_cast<char*>(buf.data) + k * kChunk, kChunk, buf.sink);
    };
  }
  static Options options(const std::string& dir, int runs) {
    auto opt = counters({kTimeMetric, kDram}, dir, runs);
    opt.combine_kernel_metrics = [](double a, double b) { return a + b; };
    return opt;
  }
  static double bytes() { return static_cast<double>(kKernels * kChunk); }
  BigBuffer buf;
};

// The first Start after Enable fixes how many ranges a pass holds (a later, larger SetConfig
// silently kept at most twice as many on the H200): a run with more kernels than the profiler
// was set up for makes kscope enable a new object, and every kernel is still attributed. Both
// with a session spanning the runs and with a session per annotation; the warm-up run tells the
// size.
TEST(CounterMetricsGpuTest, RunWithMoreKernelsThanTheFirstSessionHeldGrowsTheProfiler) {
  ChunkReads reads;
  for (const char* batch : {"span", "annotation"}) {
    setenv("KSCOPE_CUPTI_BATCH", batch, 1);
    auto opt = ChunkReads::options(std::string("grow_") + batch, 2);
    opt.warmup_runs = 1;
    std::string log;
    opt.verbosity = Verbosity::kDebug;
    opt.log = [&log](std::string_view text) { log += text; };
    const auto r = profile("grow", configs({1}), reads.bench(), opt);
    unsetenv("KSCOPE_CUPTI_BATCH");
    const auto bytes = row(r, "reads", kDram);
    const double expected = ChunkReads::bytes();
    EXPECT_NEAR(bytes.min, expected, 0.02 * expected) << batch;
    EXPECT_NEAR(bytes.max, expected, 0.02 * expected) << batch;
    EXPECT_EQ(bytes.num_runs, 2u) << batch;
    EXPECT_NE(log.find("enabling a new range profiler object"), std::string::npos) << batch << "\n" << log;
  }
}

// Without a warm-up run nothing tells kscope how many kernels a run launches before the first
// one: a first run launching more than the profiler was set up for (32 ranges for this sweep)
// fails with the capacity and the fix, which then works.
TEST(CounterMetricsGpuTest, FirstRunWithMoreKernelsThanExpectedNamesTheFix) {
  ChunkReads reads;
  auto opt = ChunkReads::options("overflow", 1);
  try {
    (void)profile("overflow", configs({1}), reads.bench(), opt);
    ADD_FAILURE() << "no error";
  } catch (const ToolError& e) {
    std::printf("  %s\n", e.what());
    EXPECT_NE(std::string(e.what()).find("warmup_runs=1"), std::string::npos) << e.what();
  }
  opt.warmup_runs = 1;
  const auto r = profile("overflow", configs({1}), reads.bench(), opt);
  EXPECT_NEAR(row(r, "reads", kDram).avg, ChunkReads::bytes(), 0.02 * ChunkReads::bytes());
}

// A graph launched outside annotations is profiled by a span but its kernels are invisible to
// the launch callbacks: a clear error naming the fallback, which then works.
TEST(CounterMetricsGpuTest, GraphOutsideAnnotationsNeedsSessionsPerAnnotation) {
  BigBuffer buf;
  ReadGraph graph(buf.data, buf.bytes, buf.sink);
  auto bench = [&](const Config&) {
    graph.launch();
    Annotation a("read");
    launch_read(buf.data, buf.bytes, buf.sink);
  };
  try {
    (void)profile("graph_outside", configs({1}), bench, counters({kDram}, "graph_outside", 1));
    ADD_FAILURE() << "no error";
  } catch (const NotSupportedError& e) {
    std::printf("  span: %s\n", e.what());
    EXPECT_NE(std::string(e.what()).find("KSCOPE_CUPTI_BATCH=annotation"), std::string::npos)
        << e.what();
  }
  setenv("KSCOPE_CUPTI_BATCH", "annotation", 1);
  const auto r =
      profile("graph_outside", configs({1}), bench, counters({kDram}, "graph_outside", 1));
  unsetenv("KSCOPE_CUPTI_BATCH");
  EXPECT_NEAR(row(r, "read", kDram).avg, static_cast<double>(buf.bytes),
              0.01 * static_cast<double>(buf.bytes));
}

TEST(CounterMetricsGpuTest, UnknownMetricFailsBeforeTheFirstRun) {
  int calls = 0;
  try {
    (void)profile("typo", configs({1}), [&](const Config&) { ++calls; },
                  counters({"dram__byte_read.sum"}, "typo", 1));
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'dram__bytes_read.sum'"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(calls, 0);
}

// A CUDA graph launched in a region is one launch: with cache_control "all" it is flushed before
// it like any later kernel, so the read inside the graph after a read launched on its own is as
// cold as that one; with "region" it finds the first read's lines in the L2. Activity durations
// (the timing path, where graph launches are allowed in kernel mode), the graph's kernel alone.
TEST(CounterMetricsGpuTest, AGraphLaunchedInARegionIsFlushedBeforeIt) {
  const std::size_t bytes = std::min<std::size_t>(32u << 20, l2_bytes() / 2) / 16 * 16;
  void* input = device_zeroed(bytes);
  auto* sink = static_cast<float*>(device_zeroed(64));
  ReadGraph graph(input, bytes, sink);
  const Benchmark kernel_then_graph = [&](const Config&) {
    Annotation a("kernel_then_graph");
    launch_read(input, bytes, sink);
    graph.launch();
  };
  auto graph_read = [&](const std::string& cache) {
    auto o = counters({kTimeMetric}, "graph_" + cache, 5);
    o.cache_control = cache;
    o.combine_kernel_metrics = [](double, double second) { return second; };  // the graph's read
    return row(profile("graph_flush", configs({1}), kernel_then_graph, o), "kernel_then_graph", kTimeMetric).avg;
  };
  auto alone = counters({kTimeMetric}, "graph_alone", 5);
  const double cold = row(profile("graph_alone", configs({1}), [&](const Config&) {
    Annotation a("read");
    launch_read(input, bytes, sink);
  }, alone), "read", kTimeMetric).avg;
  const double all = graph_read("all");
  const double region = graph_read("region");
  std::printf("  a cold read %.0f ns; the graph's read after a read: 'all' %.0f ns, 'region' %.0f ns\n",
              cold, all, region);
  EXPECT_NEAR(all, cold, 0.1 * cold);
  EXPECT_LT(region, 0.85 * all);
  device_free(input);
  device_free(sink);
}

// Checkpoint replay while the process holds most of the GPU's memory (LLM serving stacks hold
// 90 %): the save cannot fit beside the original and goes to host memory, which took 181.9 s
// for 3 runs at 110 GB on the H200 with no word to the user (issue 35). The warning comes before
// the first pass, with the estimate and the alternatives; the values stay right.
TEST(CounterMetricsGpuTest, ACheckpointOfALargeFootprintIsWarnedAboutBeforeTheFirstPass) {
  const cuda::MemoryInfo before = cuda::current_memory_info();
  constexpr std::size_t kLeft = 30ull << 30;  // for the flush buffer, CUPTI and the kernels
  if (before.free < kLeft + (100ull << 30)) GTEST_SKIP() << "needs >= 130 GiB of free device memory";
  void* held = device_zeroed(before.free - kLeft);
  std::vector<std::string> warnings;
  auto opt = counters({kTimeMetric, kSmThroughput}, "large_footprint", 1);  // 8 passes
  opt.on_warning = [&](std::string_view w) { warnings.emplace_back(w); };
  auto* out = static_cast<float*>(device_zeroed(sizeof(float) * 256));
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = profile("large_footprint", configs({1}), [&](const Config&) {
    Annotation a("ffma");
    launch_ffma(out, 1, 256, 100);
  }, opt);
  std::printf("  %.0f GiB held: profile() took %.1f s\n", static_cast<double>(before.free - kLeft) / (1ull << 30),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  device_free(out);
  device_free(held);
  std::string checkpoint;
  for (const auto& w : warnings) {
    std::printf("  warning: %s\n", w.c_str());
    if (w.rfind("metric_replay 'checkpoint' saves the device's memory", 0) == 0) checkpoint = w;
  }
  EXPECT_NE(checkpoint.find("the copy does not fit on the device and goes to host memory"),
            std::string::npos) << checkpoint;
  EXPECT_NE(checkpoint.find("for the sweep's 1 measured run(s)"), std::string::npos) << checkpoint;
  EXPECT_NE(checkpoint.find("Use metric_replay 'application'"), std::string::npos) << checkpoint;
  EXPECT_GT(row(r, "ffma", kSmThroughput).avg, 0.0);
}

TEST(CounterMetricsGpuTest, DebugOutputShowsPassesStepsCostAndOneWarning) {
  std::string log;
  std::vector<std::string> warnings;
  auto opt = counters({kTimeMetric, kSmThroughput, kFfma}, "debug", 2);  // 9 passes
  release();  // Enable shows only for an object the session makes (KSCOPE_KEEP_COUNTERS_S keeps one)
  opt.verbosity = Verbosity::kDebug;
  opt.log = [&](std::string_view s) { log += s; };
  opt.on_warning = [&](std::string_view s) { warnings.emplace_back(s); };
  auto* out = static_cast<float*>(device_zeroed(sizeof(float) * 256));
  (void)profile("debug", configs({1}), [&](const Config&) {
    Annotation a("ffma");
    launch_ffma(out, 1, 256, 100);
  }, opt);
  device_free(out);
  std::printf("%s", log.c_str());
  EXPECT_NE(log.find("9 replay pass(es)"), std::string::npos);
  EXPECT_NE(log.find("checkpoint replay"), std::string::npos);
  EXPECT_NE(log.find("cupti step: cuptiRangeProfilerEnable -> 0"), std::string::npos);
  EXPECT_NE(log.find("cupti step: cuptiRangeProfilerSetConfig -> 0"), std::string::npos);
  // Every kernel of a replayed run is profiled: the two ffma kernels and the two cache flushes.
  EXPECT_NE(log.find("cupti metrics cost: 4 kernel(s) profiled, 2 attributed"), std::string::npos);
  EXPECT_NE(log.find("device memory checkpoint: 2 save(s)"), std::string::npos);
  EXPECT_NE(log.find(", 16 restore(s)"), std::string::npos);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("needs 9 replay passes"), std::string::npos) << warnings[0];
}

// KSCOPE_KEEP_COUNTERS_S (issue 19): the next sweep of the same metric set and shape reuses the
// range profiler (no Enable, no first session) and measures the same bytes; a sweep of another
// metric set enables its own and counts right; a timing sweep in between, and release(), disable
// the kept one.
TEST(CounterMetricsGpuTest, AKeptRangeProfilerServesOnlyTheSameSweep) {
  BigBuffer buf;
  auto* out = static_cast<float*>(device_zeroed(sizeof(float) * 528 * 256));
  release();
  setenv("KSCOPE_KEEP_COUNTERS_S", "60", 1);
  auto sweep = [&](const std::string& dir, std::vector<std::string> metrics) {
    auto opt = counters(std::move(metrics), dir, 3);
    std::string log;
    opt.verbosity = Verbosity::kDebug;
    opt.log = [&log](std::string_view s) { log += s; };
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = profile("kept", configs({1}), [&](const Config&) {
      { Annotation a("read"); launch_read(buf.data, buf.bytes, buf.sink); }
      { Annotation f("ffma"); launch_ffma(out, 528, 256, 1000); }
    }, opt);
    std::printf("  FINDING kept range profiler, %s: profile() %.1f ms\n", dir.c_str(),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return std::make_pair(r, log);
  };
  auto made_its_own = [](const std::string& log) {
    return log.find("cupti step: cuptiRangeProfilerEnable -> 0") != std::string::npos;
  };
  auto reused = [](const std::string& log) {
    return log.find("the range profiler kept by the previous session is reused") != std::string::npos;
  };
  auto expect_bytes = [&](const Results& r, const std::string& dir) {
    EXPECT_NEAR(row(r, "read", kDram).avg, static_cast<double>(buf.bytes),
                0.01 * static_cast<double>(buf.bytes)) << dir;
    EXPECT_EQ(row(r, "read", kDram).num_runs, 3u) << dir;
  };
  const auto [r1, log1] = sweep("kept1", {kTimeMetric, kDram});
  EXPECT_TRUE(made_its_own(log1));
  EXPECT_NE(log1.find("the range profiler stays enabled for 60"), std::string::npos) << log1;
  expect_bytes(r1, "kept1");
  const auto [r2, log2] = sweep("kept2", {kTimeMetric, kDram});
  EXPECT_FALSE(made_its_own(log2)) << log2;
  EXPECT_TRUE(reused(log2)) << log2;
  EXPECT_NE(log2.find("cupti step: cuptiRangeProfilerSetConfig -> 0"), std::string::npos) << log2;
  expect_bytes(r2, "kept2");
  EXPECT_NEAR(row(r2, "read", kTimeMetric).avg, row(r1, "read", kTimeMetric).avg,
              0.05 * row(r1, "read", kTimeMetric).avg);
  const auto [r3, log3] = sweep("kept3", {kFfma});  // another metric set: its own object
  EXPECT_TRUE(made_its_own(log3)) << log3;
  EXPECT_EQ(row(r3, "ffma", kFfma).min, 2.0 * 528 * 256 * 1000);
  EXPECT_EQ(row(r3, "ffma", kFfma).max, 2.0 * 528 * 256 * 1000);
  Options timing;
  timing.runs = 3;
  timing.verbosity = Verbosity::kSilent;
  timing.output_prefix = scratch_dir("kept_timing");
  const auto t = profile("kept_timing", configs({1}), [&](const Config&) {
    Annotation a("read");
    launch_read(buf.data, buf.bytes, buf.sink);
  }, timing);
  EXPECT_EQ(t.raw().size(), 3u);
  EXPECT_GT(row(t, "read", kTimeMetric).avg, 1000);
  const auto [r4, log4] = sweep("kept4", {kFfma});  // the timing sweep disabled the kept one
  EXPECT_TRUE(made_its_own(log4)) << log4;
  EXPECT_EQ(row(r4, "ffma", kFfma).min, 2.0 * 528 * 256 * 1000);
  release();
  const auto [r5, log5] = sweep("kept5", {kFfma});
  EXPECT_TRUE(made_its_own(log5)) << log5;
  unsetenv("KSCOPE_KEEP_COUNTERS_S");
  const auto [r6, log6] = sweep("kept6", {kFfma});  // kept by kept5, reused, then disabled
  EXPECT_TRUE(reused(log6)) << log6;
  EXPECT_EQ(log6.find("stays enabled"), std::string::npos) << log6;
  const auto [r7, log7] = sweep("kept7", {kFfma});
  EXPECT_TRUE(made_its_own(log7)) << log7;
  device_free(out);
}

}  // namespace
}  // namespace kscope
