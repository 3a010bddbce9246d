// The cupti tool's counters against Nsight Compute on the same 20-kernel sweep, when `ncu` is on
// PATH: values within 3 % for throughput percentages, 2 % for durations, 1 % for DRAM bytes of
// cold reads, same units; and the wall time of both, printed as the table of issue 4's closing
// note. ncu profiles this same binary re-run with KSCOPE_NCU_CHILD=1, which only launches the
// kernels (always with --clock-control none, like the cupti tool).
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

#include "counter_kernels.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;
using Clock = std::chrono::steady_clock;

constexpr int kConfigs = 20;
const std::vector<std::string> kThreeMetrics = {
    "gpu__time_duration.sum", "dram__bytes_read.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed"};  // 8 passes
const std::vector<std::string> kOnePassMetrics = {"gpu__time_duration.sum", "dram__bytes_read.sum"};

// Config i: a cold read of 128 MiB + 64 MiB * i (i < 10) or an FFMA loop (i >= 10).
struct Sweep {
  Sweep() {
    data = device_zeroed(bytes_of(kConfigs / 2 - 1));
    out = static_cast<float*>(device_zeroed(sizeof(float) * 528 * 256));
  }
  ~Sweep() {
    device_free(data);
    device_free(out);
  }
  static std::size_t bytes_of(int i) { return (std::size_t{128} << 20) + (std::size_t{64} << 20) * i; }
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
  std::vector<std::vector<double>> values;  // per kernel, per metric
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
    r.values.push_back(v);
  }
  if (rc != 0 || header.empty()) r.error = "ncu exited with " + std::to_string(rc) + "; output in " + csv;
  return r;
}

struct KscopeRun {
  Results results;
  double wall_s = 0;
};

KscopeRun run_kscope(Sweep& sweep, const std::vector<std::string>& metrics, const std::string& replay) {
  Options o;
  o.metrics = metrics;
  o.metric_replay = replay;
  o.runs = 1;
  o.verbosity = Verbosity::kSilent;
  o.output_prefix = scratch_dir("cupti_vs_ncu_kscope");
  std::vector<std::vector<Value>> rows;
  for (int i = 0; i < kConfigs; ++i) rows.push_back({i});
  KscopeRun r;
  const auto t0 = Clock::now();
  r.results = profile("sweep", configs({"i"}, rows), [&](const Config& c) {
    Annotation a("k");
    sweep.launch(c.get<int>(0));
  }, o);
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
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

}  // namespace

TEST(CuptiVsNcu, TwentyKernelSweepAgreesWithNcuInLessWallTime) {
  if (std::getenv("KSCOPE_NCU_CHILD")) GTEST_SKIP() << "child run";
  const std::string ncu = ncu_path();
  if (ncu.empty()) GTEST_SKIP() << "ncu is not on PATH";
  Sweep sweep;
  const auto k8 = run_kscope(sweep, kThreeMetrics, "kernel");
  const auto k8app = run_kscope(sweep, kThreeMetrics, "application");
  const auto k1 = run_kscope(sweep, kOnePassMetrics, "kernel");
  const auto n8 = run_ncu(ncu, kThreeMetrics);
  const auto n1 = run_ncu(ncu, kOnePassMetrics);
  ASSERT_TRUE(n8.error.empty()) << n8.error;
  ASSERT_EQ(n8.values.size(), static_cast<std::size_t>(kConfigs));

  std::printf("\n| config | kernel | time kscope (ns) | time ncu (ns) | dram kscope (B) | dram ncu (B) | "
              "sm%% kscope | sm%% ncu | sm%% kscope app-replay |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < kConfigs; ++i) {
    double k[3], a[3];
    for (int m = 0; m < 3; ++m) {
      const auto* row = find_row(k8.results, kThreeMetrics[m], i);
      const auto* app = find_row(k8app.results, kThreeMetrics[m], i);
      ASSERT_NE(row, nullptr);
      ASSERT_NE(app, nullptr);
      k[m] = row->avg;
      a[m] = app->avg;
    }
    const auto& n = n8.values[i];
    std::printf("| %d | %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f |\n", i,
                i < kConfigs / 2 ? "read" : "ffma", k[0], n[0], k[1], n[1], k[2], n[2], a[2]);
    EXPECT_TRUE(close(k[0], n[0], 0.02, 0)) << "config " << i << " duration " << k[0] << " vs ncu " << n[0];
    if (i < kConfigs / 2) {
      EXPECT_TRUE(close(k[1], n[1], 0.01, 0)) << "config " << i << " dram " << k[1] << " vs ncu " << n[1];
    } else {
      EXPECT_TRUE(close(k[1], n[1], 0.01, 1 << 20)) << "config " << i << " dram " << k[1] << " vs ncu " << n[1];
    }
    EXPECT_TRUE(close(k[2], n[2], 0.03, 0.5)) << "config " << i << " sm% " << k[2] << " vs ncu " << n[2];
  }
  for (int m = 0; m < 3; ++m) {
    const auto* row = find_row(k8.results, kThreeMetrics[m], 0);
    EXPECT_EQ(row->unit.value_or(""), n8.units[m]) << kThreeMetrics[m];
  }
  std::printf("\nwall time for %d kernels (kscope in-process vs ncu CLI, process start included):\n", kConfigs);
  std::printf("  8-pass set: kscope kernel replay %.2f s, kscope application replay %.2f s, ncu %.2f s "
              "(%.1fx / %.1fx less)\n", k8.wall_s, k8app.wall_s, n8.wall_s, n8.wall_s / k8.wall_s,
              n8.wall_s / k8app.wall_s);
  std::printf("  1-pass set: kscope %.2f s, ncu %.2f s (%.1fx less)%s\n", k1.wall_s, n1.wall_s,
              n1.wall_s / k1.wall_s, n1.error.empty() ? "" : (" [ncu: " + n1.error + "]").c_str());
}

// The child ncu profiles: the sweep's kernels, once each, in config order.
TEST(NcuChild, Sweep) {
  if (!std::getenv("KSCOPE_NCU_CHILD")) GTEST_SKIP() << "only run under ncu by CuptiVsNcu";
  Sweep sweep;
  for (int i = 0; i < kConfigs; ++i) {
    sweep.launch(i);
    device_synchronize();
  }
}

}  // namespace kscope
