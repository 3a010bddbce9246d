// The ncu tool on a real GPU (label gpu; skipped without a GPU or without ncu). Each test
// re-runs this binary under ncu, limited to the test itself (--gtest_filter), so every profile()
// call must come before the assertions: in the re-run child, the sessions before the marked one
// return empty results and the marked one ends the process. Clocks are never locked here
// (clock_control "none"): the GPU machine is shared.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>

#include "collect/ncu/ncu_locator.hpp"
#include "collect/ncu/ncu_raw_table.hpp"
#include "collect/ncu/ncu_report_text.hpp"
#include "kscope/kscope.hpp"
#include "subprocess/process_runner.hpp"
#include "support/gpu_test.hpp"
#include "test_kernels.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;

bool in_child() { return std::getenv("KSCOPE_CHILD_SESSION") != nullptr; }

// The parent creates a fresh directory; the re-run child must not wipe it (ncu writes there).
std::string out_dir(const std::string& name) {
  if (!in_child()) return scratch_dir("ncu_gpu_" + name);
  return std::string(KSCOPE_BINARY_DIR) + "/test-output/ncu_gpu_" + name + "/";
}

std::string self_exe() {
  char buf[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

class NcuGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      ncu_ = ncu::locate_ncu();
    } catch (const ToolError& e) {
      GTEST_SKIP() << "needs ncu: " << e.what();
    }
  }

  // Options of the ncu sessions: this test only, in the re-run binary.
  Options ncu_options(const std::string& dir, int runs) const {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    Options o;
    o.tool = "ncu";
    o.runs = runs;
    o.warmup_runs = 1;
    o.clock_control = "none";
    o.verbosity = Verbosity::kDebug;  // the ncu command line and the attribution path
    o.output_prefix = out_dir(dir);
    o.reexec_argv = {self_exe(),
                     std::string("--gtest_filter=") + info->test_suite_name() + "." + info->name()};
    return o;
  }

  std::string ncu_;
};

// Device buffers of n floats. The benchmarks launch through vadd()/scale(), which refuse a
// larger n: an out-of-bounds kernel may go unnoticed in a plain run but fails under ncu's replay
// (the driver's LaunchFailed, the child killed with no report).
struct Buffers {
  explicit Buffers(std::size_t count)
      : n(count), a(device_floats(count)), b(device_floats(count)), c(device_floats(count)) {
    launch_fill(a, 1.f, n);
    launch_fill(b, 2.f, n);
    synchronize();
  }
  ~Buffers() {
    free_device(a);
    free_device(b);
    free_device(c);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  std::size_t n;
  float *a, *b, *c;

  void check(std::size_t count) const {
    if (count > n) {
      throw std::logic_error("test bug: a kernel over " + std::to_string(count) +
                             " floats on buffers of " + std::to_string(n));
    }
  }
  void vadd(std::size_t count) const {
    check(count);
    launch_vadd(a, b, c, count);
  }
  void scale(std::size_t count) const {
    check(count);
    launch_scale(c, a, 2.f, count);
  }
};

const ProcessedRow* row_of(const Results& r, const std::string& annotation, std::size_t config,
                          const std::string& metric) {
  for (const auto& p : r.processed()) {
    if (p.annotation == annotation && p.config == config && p.metric == metric) return &p;
  }
  ADD_FAILURE() << "no row for " << annotation << " config " << config << " " << metric;
  return nullptr;
}

double avg_of(const Results& r, const std::string& annotation, std::size_t config,
              const std::string& metric = kTimeMetric) {
  const ProcessedRow* p = row_of(r, annotation, config, metric);
  return p ? p->avg : NAN;
}

constexpr std::size_t kLargest = std::size_t{1} << 24;  // the largest n of sizes()

std::vector<Config> sizes() {
  return configs(std::vector<std::string>{"n"},
                 std::vector<std::vector<Value>>{{std::int64_t{1} << 22},
                                                 {static_cast<std::int64_t>(kLargest)}});
}

TEST_F(NcuGpuTest, SweepGivesOneRowPerAnnotationConfigAndRun) {
  Buffers buf(kLargest);
  Options o = ncu_options("sweep", 3);
  o.metrics = {kTimeMetric, "dram__bytes_read.sum"};
  const auto r = profile("ncu_sweep", sizes(), [&](const Config& c) {
    const auto n = c.get<std::size_t>("n");
    { Annotation a("vadd"); buf.vadd(n); }
    { Annotation s("scale"); buf.scale(n); }
  }, o);

  ASSERT_EQ(r.raw().size(), 2u * 2u * 2u * 3u);  // annotations x metrics x configs x runs
  for (const auto& row : r.raw()) {
    EXPECT_TRUE(std::isfinite(row.value) && row.value > 0) << row.annotation << " " << row.metric;
    EXPECT_NE(row.kernel.find(row.annotation + "_kernel"), std::string::npos) << row.kernel;
    EXPECT_EQ(row.unit, std::optional<std::string>(row.metric == kTimeMetric ? "ns" : "byte"));
  }
  // With ncu's cache control "all", vadd reads both inputs from DRAM: 8 bytes per element.
  EXPECT_NEAR(avg_of(r, "vadd", 1, "dram__bytes_read.sum"), 8.0 * (1 << 24), 0.1 * 8.0 * (1 << 24));
  EXPECT_EQ(r.metadata().tool, "ncu");
  EXPECT_FALSE(r.metadata().tool_version.empty());
  EXPECT_FALSE(r.metadata().gpu.empty());
}

TEST_F(NcuGpuTest, DurationsMatchCuptiWithin5Percent) {
  Buffers buf(kLargest);
  const auto cs = configs(std::vector<std::string>{"n", "spin_ns"},
                          std::vector<std::vector<Value>>{{std::int64_t{1} << 24, 50000},
                                                          {std::int64_t{1} << 24, 200000}});
  const auto bench = [&](const Config& c) {
    { Annotation v("vadd"); buf.vadd(c.get<std::size_t>("n")); }
    { Annotation s("spin"); launch_spin(c.get<long long>("spin_ns")); }
  };
  Options cupti_opt;
  cupti_opt.runs = 5;
  cupti_opt.warmup_runs = 1;
  cupti_opt.verbosity = Verbosity::kSilent;
  cupti_opt.output_prefix = out_dir("compare_cupti");
  const auto by_cupti = profile("compare_cupti", cs, bench, cupti_opt);
  const auto by_ncu = profile("compare_ncu", cs, bench, ncu_options("compare_ncu", 5));

  std::cout << "--- cupti (" << by_cupti.metadata().wall_seconds << " s) ---\n";
  by_cupti.print(std::cout);
  std::cout << "--- ncu (" << by_ncu.metadata().wall_seconds << " s) ---\n";
  by_ncu.print(std::cout);
  // One line per pair, for comparing GPU runs. In the first run (kscope's L2 flush a memset)
  // vadd was 8.7 % apart (cupti 61.1 us, ncu 56.2 us); spin, which touches no memory, 2 %.
  std::cout << "--- ncu vs cupti (" << kTimeMetric << ") ---\n";
  for (const char* a : {"vadd", "spin"}) {
    for (std::size_t c = 0; c < cs.size(); ++c) {
      const ProcessedRow* cupti_row = row_of(by_cupti, a, c, kTimeMetric);
      const ProcessedRow* ncu_row = row_of(by_ncu, a, c, kTimeMetric);
      ASSERT_TRUE(cupti_row && ncu_row);
      EXPECT_EQ(cupti_row->unit, std::optional<std::string>("ns"));
      EXPECT_EQ(ncu_row->unit, std::optional<std::string>("ns"));
      const double cupti = cupti_row->avg, ncu = ncu_row->avg;
      std::cout << a << " config " << c << ": cupti " << cupti << " ns, ncu " << ncu
                << " ns, ncu/cupti " << ncu / cupti << " (" << 100.0 * (ncu - cupti) / cupti
                << " %)\n";
      ASSERT_GE(cupti, 20000.0) << a << " must run >= 20 us for the comparison";
      EXPECT_NEAR(ncu, cupti, 0.05 * cupti) << a << " config " << c;
    }
  }
}

TEST_F(NcuGpuTest, RangeReplayGivesKernelRange) {
  Buffers buf(std::size_t{1} << 22);
  Options o = ncu_options("range", 2);
  o.replay_mode = "range";
  const auto r = profile("ncu_range", sizes(), [&](const Config&) {
    Annotation pair("pair");  // two kernels: one result per range
    buf.vadd(buf.n);
    buf.scale(buf.n);
  }, o);

  ASSERT_EQ(r.raw().size(), 2u * 2u);  // configs x runs
  for (const auto& row : r.raw()) {
    EXPECT_EQ(row.kernel, "range");
    EXPECT_GT(row.value, 0);
  }
}

TEST_F(NcuGpuTest, InvalidMetricGivesTheError) {
  Options o = ncu_options("invalid", 1);
  o.metrics = {"kscope_not_a_metric.sum"};
  try {
    (void)profile("ncu_invalid", configs({1}), [](const Config&) {
      Annotation a("spin");
      launch_spin(1000);
    }, o);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("Invalid value ['kscope_not_a_metric.sum'] for 'metrics' "
                                         "parameter"),
              std::string::npos)
        << e.what();
  }
}

// Values of `metric` as ncu prints them on its (non-CSV) raw page, in result order: an
// independent reading of the report.
std::vector<double> printed_values(const std::string& ncu, const std::string& report,
                                   const std::string& metric) {
  subprocess::ProcessSpec spec;
  spec.argv = {ncu, "--import", report, "--page", "raw", "--print-units", "base"};
  spec.capture_stdout = true;
  const auto r = subprocess::run_process(spec);
  EXPECT_TRUE(r.succeeded()) << r.status_text() << r.stderr_text();
  std::vector<double> out;
  const std::regex line("^\\s*" + std::regex_replace(metric, std::regex("\\."), "\\.") +
                        "\\s+\\S+\\s+([0-9,.]+)\\s*$");
  std::istringstream in(r.stdout_text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) {
      std::string digits;
      for (char ch : m[1].str()) {
        if (ch != ',') digits += ch;
      }
      out.push_back(std::stod(digits));
    }
  }
  return out;
}

TEST_F(NcuGpuTest, ImportReproducesTheValuesNcuPrints) {
  // Sized for the largest config: buffers of 2^22 floats under a 2^24 sweep made the driver
  // report LaunchFailed under ncu in the first GPU run.
  Buffers buf(kLargest);
  const Options o = ncu_options("import", 2);
  const auto swept = profile("ncu_import", sizes(), [&](const Config& c) {
    Annotation a("vadd");
    buf.vadd(c.get<std::size_t>("n"));
  }, o);
  const std::string report = o.output_prefix + "ncu-output-ncu_import-0.ncu-rep";
  ASSERT_TRUE(std::filesystem::exists(report)) << report;

  NcuImportOptions io;
  io.metrics = {kTimeMetric};
  const auto imported = import_ncu(report, io);
  const auto printed = printed_values(ncu_, report, kTimeMetric);
  // The report holds the warm-up runs too (no payload, no run): 2 configs x (1 + 2) results.
  ASSERT_EQ(imported.raw().size(), 6u);
  ASSERT_EQ(printed.size(), imported.raw().size());
  for (std::size_t i = 0; i < printed.size(); ++i) EXPECT_EQ(imported.raw()[i].value, printed[i]) << i;
  // The sweep's measured runs are the same numbers.
  for (const auto& row : swept.raw()) {
    bool found = false;
    for (const auto& im : imported.raw()) found = found || im.value == row.value;
    EXPECT_TRUE(found) << "config " << row.config << " run " << row.run << ": " << row.value;
  }
  // How ncu shows kscope's NVTX payload (for docs/tools/ncu.md).
  const auto table = ncu::NcuRawTable::parse(ncu::ncu_raw_csv(report, ncu_), report);
  const auto& last = table.results().back();
  std::cout << "start/end cell of the last result: "
            << table.text(last, "Id:Domain:Start/Stop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg")
            << "\npayload decoded: " << (last.start_end.at(0).payload ? "yes" : "no") << "\n";
}

}  // namespace
}  // namespace kscope
