// The cupti tool's counters against Nsight Compute on the same 20-kernel sweep, when `ncu` is on
// PATH: values within 3 % for throughput percentages, 2 % for durations (of either of ncu's two
// measurements of the kernel, see close_to_ncu_duration), 1 % for DRAM bytes of cold reads, same
// units; and the wall time of both, printed as the tables of issue 4's closing
// note. ncu profiles this same binary re-run with KSCOPE_NCU_CHILD=1, which only launches the
// kernels (always with --clock-control none, like the cupti tool).
//
// Both sides measure every config kRepeats times and are compared by their medians: a single
// measurement of a 30-80 us memory-bound kernel varied by up to 3.5 % between two ncu runs on the
// H200 (76,960 vs 79,648 ns), more than the 2 % being tested. Both sides also run something
// before the first measured kernel (kscope: warmup_runs = 1; the ncu child: one kernel the
// comparison ignores).
//
// Which kscope values start from a flushed cache, like ncu's (--cache-control all flushes before
// every pass): the one-pass set (no replay: the kernel runs right after kscope's flush) and
// application replay (every pass is a whole run after kscope's flush). Kernel replay runs every
// pass after CUPTI's memory save or restore and CUPTI 13.0 cannot flush between passes (nor say
// which pass measured gpu__time_duration.sum), so its durations and throughput percentages of
// memory-bound kernels are printed but compared only for the compute-bound configs; its DRAM
// byte counts are compared everywhere.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collect/cupti/collection_plan.hpp"
#include "collect/cupti/metric_catalog.hpp"
#include "core/statistics.hpp"
#include "counter_kernels.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;
using Clock = std::chrono::steady_clock;

constexpr int kConfigs = 20;
constexpr int kRepeats = 3;  // measurements per config, on both sides
const std::vector<std::string> kThreeMetrics = {
    "gpu__time_duration.sum", "dram__bytes_read.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed"};  // 8 passes
const std::vector<std::string> kOnePassMetrics = {"gpu__time_duration.sum", "dram__bytes_read.sum"};

// Config i: a cold read of 256 MiB + 64 MiB * i (i < 10, 65-210 us) or an FFMA loop (i >= 10).
// Reads start at 256 MiB: medians of 3 still moved by about +-1 us between runs on both sides
// (H200), which is 2-3 % of the 34-50 us of 128-192 MiB reads and fails a 2 % check by chance.
struct Sweep {
  Sweep() {
    data = device_zeroed(bytes_of(kConfigs / 2 - 1));
    out = static_cast<float*>(device_zeroed(sizeof(float) * 528 * 256));
  }
  ~Sweep() {
    device_free(data);
    device_free(out);
  }
  static std::size_t bytes_of(int i) { return (std::size_t{256} << 20) + (std::size_t{64} << 20) * i; }
  void launch(int i) {
    if (i < kConfigs / 2) {
      launch_read(data, bytes_of(i), out);
    } else {
      launch_ffma(out, 528, 256, 5000 * (i - kConfigs / 2 + 1));
    }
  }
  void* data;
  float* out;
};

std::string ncu_path() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = dir + "/ncu";
    if (!dir.empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string self_exe() {
  char buf[4096] = {0};
  const auto n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  out.push_back(cell);
  return out;
}

double ncu_number(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  return std::strtod(s.c_str(), nullptr);
}

struct NcuRun {
  std::vector<std::vector<double>> values;  // per config, per metric: median of its kRepeats kernels
  std::vector<std::string> units;           // per metric
  double wall_s = 0;
  std::string error;
};

NcuRun run_ncu(const std::string& ncu, const std::vector<std::string>& metrics) {
  NcuRun r;
  std::string list;
  for (const auto& m : metrics) list += (list.empty() ? "" : ",") + m;
  const std::string csv = scratch_dir("cupti_vs_ncu_" + std::to_string(metrics.size())) + "ncu.csv";
  const std::string cmd = "KSCOPE_NCU_CHILD=1 '" + ncu + "' --csv --page raw --clock-control none "
                          "--cache-control all --metrics " + list + " '" + self_exe() +
                          "' --gtest_filter=NcuChild.Sweep > '" + csv + "' 2>&1";
  std::printf("  %s\n", cmd.c_str());
  const auto t0 = Clock::now();
  const int rc = std::system(cmd.c_str());
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::ifstream in(csv);
  std::string line;
  std::vector<std::string> header;
  std::vector<int> columns;
  int kernel_col = -1;
  std::vector<std::vector<double>> kernels;  // per profiled sweep kernel, per metric
  while (std::getline(in, line)) {
    if (header.empty()) {
      if (line.rfind("\"ID\"", 0) != 0) continue;
      header = split_csv_line(line);
      for (const auto& m : metrics) {
        const auto it = std::find(header.begin(), header.end(), m);
        columns.push_back(it == header.end() ? -1 : static_cast<int>(it - header.begin()));
      }
      const auto k = std::find(header.begin(), header.end(), "Kernel Name");
      kernel_col = k == header.end() ? -1 : static_cast<int>(k - header.begin());
      if (!std::getline(in, line)) break;
      const auto units = split_csv_line(line);
      for (int c : columns) r.units.push_back(c >= 0 && c < static_cast<int>(units.size()) ? units[c] : "?");
      continue;
    }
    const auto cells = split_csv_line(line);
    if (kernel_col < 0 || kernel_col >= static_cast<int>(cells.size())) continue;
    const std::string& k = cells[kernel_col];
    if (k.find("read_kernel") == std::string::npos && k.find("ffma_kernel") == std::string::npos) continue;
    std::vector<double> v;
    for (int c : columns) v.push_back(c >= 0 && c < static_cast<int>(cells.size()) ? ncu_number(cells[c]) : NAN);
    kernels.push_back(v);
  }
  if (rc != 0 || header.empty()) r.error = "ncu exited with " + std::to_string(rc) + "; output in " + csv;
  for (std::size_t first = 0; first + kRepeats <= kernels.size(); first += kRepeats) {
    std::vector<double> per_metric;
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      std::vector<double> v;
      for (int k = 0; k < kRepeats; ++k) v.push_back(kernels[first + k][m]);
      per_metric.push_back(stats::median(v));
    }
    r.values.push_back(per_metric);
  }
  if (r.error.empty() && kernels.size() != static_cast<std::size_t>(kConfigs * kRepeats)) {
    r.error = "ncu profiled " + std::to_string(kernels.size()) + " sweep kernels, expected " +
              std::to_string(kConfigs * kRepeats) + "; output in " + csv;
  }
  return r;
}

struct KscopeRun {
  Results results;
  double wall_s = 0;
  std::string mode;  // CollectionPlan::describe() of the run, from its DEBUG output
  std::string cost;  // the "cupti metrics cost" summary, from its DEBUG output
};

// One profile() of the sweep; `batch` sets KSCOPE_CUPTI_BATCH for it (nullptr: unset). DEBUG
// output goes to a string (cheap) so that the collection mode and the CUPTI cost can be printed.
KscopeRun run_kscope(Sweep& sweep, const std::vector<std::string>& metrics,
                     const std::string& replay, const char* batch = nullptr) {
  if (batch)
    setenv("KSCOPE_CUPTI_BATCH", batch, 1);
  else
    unsetenv("KSCOPE_CUPTI_BATCH");
  KscopeRun r;
  Options o;
  o.metrics = metrics;
  o.metric_replay = replay;
  o.runs = kRepeats;
  o.warmup_runs = 1;
  o.verbosity = Verbosity::kDebug;
  o.log = [&r](std::string_view text) {
    const std::string t(text);
    const auto mode = t.find("cupti metrics: ");
    if (mode != std::string::npos && t.find("replay") != std::string::npos &&
        t.find("replay pass(es)") == std::string::npos) {
      r.mode = t.substr(mode + 15);
    }
    if (t.find("cupti metrics cost: ") != std::string::npos) r.cost = t;
  };
  o.output_prefix = scratch_dir("cupti_vs_ncu_kscope");
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < kConfigs; ++i) rows.push_back({i});
  const auto t0 = Clock::now();
  r.results = profile("sweep", configs({"i"}, rows), [&](const Config& c) {
    Annotation a("k");
    sweep.launch(c.get<int>(0));
  }, o);
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  unsetenv("KSCOPE_CUPTI_BATCH");
  for (auto* text : {&r.mode, &r.cost}) {
    while (!text->empty() && (text->back() == '\n' || text->back() == '\r')) text->pop_back();
  }
  return r;
}

// The sweep's kernels without any tool, synchronised one by one like kscope's runs.
double bare_seconds(Sweep& sweep) {
  const auto t0 = Clock::now();
  for (int i = 0; i < kConfigs; ++i) {
    for (int k = 0; k < kRepeats; ++k) {
      sweep.launch(i);
      device_synchronize();
    }
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

const ProcessedRow* find_row(const Results& r, const std::string& metric, int config) {
  for (const auto& p : r.processed()) {
    if (p.metric == metric && p.config == static_cast<std::size_t>(config)) return &p;
  }
  return nullptr;
}

// Within `rel` of the reference, or within `abs` for values near zero.
bool close(double value, double reference, double rel, double abs) {
  return std::fabs(value - reference) <= std::max(rel * std::fabs(reference), abs);
}

// A duration within 2 % of either ncu measurement of the kernel (its 8-pass and its 1-pass run):
// ncu disagreed with itself by up to 4.8 % between the two on the H200 (35,168 vs 33,568 ns for
// the 128 MiB read: its multi-pass durations of short reads run ~0.4-1.6 us longer).
bool close_to_ncu_duration(double value, double ncu8, double ncu1) {
  return close(value, ncu8, 0.02, 0) || close(value, ncu1, 0.02, 0);
}

double rel_diff(double value, double reference) {
  return reference == 0 ? 0 : 100.0 * (value - reference) / std::fabs(reference);
}

// Median over the config's measured runs.
double avg_of(const KscopeRun& r, const std::string& metric, int config) {
  std::vector<double> v;
  for (const auto& raw : r.results.raw()) {
    if (raw.metric == metric && raw.config == static_cast<std::size_t>(config)) v.push_back(raw.value);
  }
  EXPECT_EQ(v.size(), static_cast<std::size_t>(kRepeats)) << metric << " config " << config;
  return stats::median(v);
}

void print_mode(const char* label, const std::vector<std::string>& metrics, const KscopeRun& r) {
  std::size_t passes = 0;
  try {
    passes = cupti::MetricCatalog::for_device(0).passes(metrics);
  } catch (const Error&) {
  }
  std::printf("  %s: %zu pass(es), %.2f s; %s\n", label, passes, r.wall_s, r.mode.c_str());
  const auto first_line = r.cost.substr(0, r.cost.find('\n'));
  std::printf("    %s\n", first_line.c_str());
  std::size_t at = r.cost.find('\n');
  while (at != std::string::npos) {  // the per-call times
    const auto next = r.cost.find('\n', at + 1);
    std::printf("    %s\n",
                r.cost.substr(at + 1, next == std::string::npos ? next : next - at - 1).c_str());
    at = next;
  }
}

const char* verdict(double ratio, double target) {
  return ratio >= target ? "target met" : "TARGET MISSED";
}

}  // namespace

TEST(CuptiVsNcu, TwentyKernelSweepAgreesWithNcuInLessWallTime) {
  if (std::getenv("KSCOPE_NCU_CHILD")) GTEST_SKIP() << "child run";
  const std::string ncu = ncu_path();
  if (ncu.empty()) GTEST_SKIP() << "ncu is not on PATH";
  Sweep sweep;
  const double bare = bare_seconds(sweep);
  const auto k8 = run_kscope(sweep, kThreeMetrics, "kernel");
  const auto k8app = run_kscope(sweep, kThreeMetrics, "application");
  const auto k1 = run_kscope(sweep, kOnePassMetrics, "kernel");
  const auto k1ann = run_kscope(sweep, kOnePassMetrics, "kernel", "annotation");
  const auto n8 = run_ncu(ncu, kThreeMetrics);
  const auto n1 = run_ncu(ncu, kOnePassMetrics);
  ASSERT_TRUE(n8.error.empty()) << n8.error;
  ASSERT_EQ(n8.values.size(), static_cast<std::size_t>(kConfigs));
  ASSERT_TRUE(n1.error.empty()) << n1.error;
  ASSERT_EQ(n1.values.size(), static_cast<std::size_t>(kConfigs));

  std::printf("\nkscope collection modes (CUPTI cost from each run's DEBUG summary):\n");
  print_mode("8-pass set, metric_replay kernel", kThreeMetrics, k8);
  print_mode("8-pass set, metric_replay application", kThreeMetrics, k8app);
  print_mode("1-pass set (default)", kOnePassMetrics, k1);
  print_mode("1-pass set, KSCOPE_CUPTI_BATCH=annotation", kOnePassMetrics, k1ann);
  std::printf(
      "cold passes: 1-pass set: its one pass right after kscope's flush; application replay: "
      "every pass is a run after kscope's flush; kernel replay: every pass after CUPTI's "
      "memory save/restore, none after a flush (CUPTI 13.0 has no cache control and does "
      "not say which pass measured gpu__time_duration.sum); ncu: a flush before every "
      "pass.\n");

  // Table 1: the metric set (8 passes).
  std::printf("\nvalues: medians of %d measurements per config on each side\n", kRepeats);
  std::printf(
      "\n| config | kernel | time kscope KR (ns) | time kscope AR (ns) | time ncu (ns) | "
      "KR vs ncu | AR vs ncu | time ncu 1-pass run (ns) | dram kscope KR (B) | dram ncu (B) | "
      "sm%% kscope KR | sm%% kscope AR | sm%% ncu |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < kConfigs; ++i) {
    const bool memory_bound = i < kConfigs / 2;
    double k[3], a[3];
    for (int m = 0; m < 3; ++m) {
      k[m] = avg_of(k8, kThreeMetrics[m], i);
      a[m] = avg_of(k8app, kThreeMetrics[m], i);
    }
    const auto& n = n8.values[i];
    const double n1_time = n1.values[i][0];
    std::printf(
        "| %d | %s | %.0f | %.0f | %.0f | %+.1f%%%s | %+.1f%% | %.0f | %.0f | %.0f | %.2f | %.2f | "
        "%.2f |\n",
        i, memory_bound ? "read" : "ffma", k[0], a[0], n[0], rel_diff(k[0], n[0]),
        memory_bound ? " (warm)" : "", rel_diff(a[0], n[0]), n1_time, k[1], n[1], k[2], a[2], n[2]);
    const double dram_abs = memory_bound ? 0 : 1 << 20;
    EXPECT_TRUE(close(k[1], n[1], 0.01, dram_abs))
        << "config " << i << " KR dram " << k[1] << " vs ncu " << n[1];
    EXPECT_TRUE(close(a[1], n[1], 0.01, dram_abs))
        << "config " << i << " AR dram " << a[1] << " vs ncu " << n[1];
    EXPECT_TRUE(close_to_ncu_duration(a[0], n[0], n1_time))
        << "config " << i << " AR duration " << a[0] << " vs ncu " << n[0] << " / " << n1_time;
    EXPECT_TRUE(close(a[2], n[2], 0.03, 0.5))
        << "config " << i << " AR sm% " << a[2] << " vs ncu " << n[2];
    if (!memory_bound) {
      EXPECT_TRUE(close_to_ncu_duration(k[0], n[0], n1_time))
          << "config " << i << " KR duration " << k[0] << " vs ncu " << n[0] << " / " << n1_time;
      EXPECT_TRUE(close(k[2], n[2], 0.03, 0.5))
          << "config " << i << " KR sm% " << k[2] << " vs ncu " << n[2];
    }
  }
  for (int m = 0; m < 3; ++m) {
    const auto* row = find_row(k8.results, kThreeMetrics[m], 0);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->unit.value_or(""), n8.units[m]) << kThreeMetrics[m];
  }

  // Table 2: the one-pass set (no replay).
  std::printf(
      "\n| config | kernel | time kscope (ns) | time ncu (ns) | vs ncu | time kscope "
      "per-annotation (ns) | dram kscope (B) | dram ncu (B) |\n|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < kConfigs; ++i) {
    const bool memory_bound = i < kConfigs / 2;
    const double t = avg_of(k1, kOnePassMetrics[0], i), d = avg_of(k1, kOnePassMetrics[1], i);
    const double ta = avg_of(k1ann, kOnePassMetrics[0], i);
    const auto& n = n1.values[i];
    std::printf("| %d | %s | %.0f | %.0f | %+.1f%% | %.0f | %.0f | %.0f |\n", i,
                memory_bound ? "read" : "ffma", t, n[0], rel_diff(t, n[0]), ta, d, n[1]);
    EXPECT_TRUE(close_to_ncu_duration(t, n8.values[i][0], n[0]))
        << "config " << i << " 1-pass duration " << t << " vs ncu " << n[0] << " / " << n8.values[i][0];
    EXPECT_TRUE(close(d, n[1], 0.01, memory_bound ? 0 : 1 << 20))
        << "config " << i << " 1-pass dram " << d << " vs ncu " << n[1];
  }

  const double r8 = n8.wall_s / k8.wall_s, r8app = n8.wall_s / k8app.wall_s;
  const double r1 = n1.wall_s / k1.wall_s, r1ann = n1.wall_s / k1ann.wall_s;
  std::printf(
      "\nwall time for %d configs x %d measurements (kscope in-process with one warm-up run per "
      "config, vs ncu CLI, process start included; the kernels alone take %.3f s; "
      "bench/run_bench.py measures the same without warm-up runs):\n",
      kConfigs, kRepeats, bare);
  std::printf(
      "  8-pass set: kscope kernel replay %.2f s (%.1fx less, %s), kscope application replay "
      "%.2f s (%.1fx less), ncu %.2f s; target >= 2x\n",
      k8.wall_s, r8, verdict(r8, 2), k8app.wall_s, r8app, n8.wall_s);
  std::printf(
      "  1-pass set: kscope %.2f s (%.1fx less, %s), kscope with a session per annotation "
      "(KSCOPE_CUPTI_BATCH=annotation) %.2f s (%.1fx less), ncu %.2f s; target >= 10x\n",
      k1.wall_s, r1, verdict(r1, 10), k1ann.wall_s, r1ann, n1.wall_s);
}

// The child ncu profiles: one kernel the comparison ignores, then the sweep's kernels, kRepeats
// times each, in config order.
TEST(NcuChild, Sweep) {
  if (!std::getenv("KSCOPE_NCU_CHILD")) GTEST_SKIP() << "only run under ncu by CuptiVsNcu";
  Sweep sweep;
  auto* counter = static_cast<int*>(device_zeroed(sizeof(int) * 1024));
  launch_increment(counter, 1024);
  device_synchronize();
  device_free(counter);
  for (int i = 0; i < kConfigs; ++i) {
    for (int k = 0; k < kRepeats; ++k) {
      sweep.launch(i);
      device_synchronize();
    }
  }
}

}  // namespace kscope
