// kscope::profile with tool "ncu", end to end on the CPU: a fake ncu (fake_ncu.sh in report
// mode) stands in for the profiling run; it leaves a canned report (the synthetic sweeps) and
// child report where ncu and the re-run program would. Everything the parent does is real:
// locating ncu, the version check, the command line, diagnosis, import, attribution,
// extraction and statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include "kscope/kscope.hpp"
#include "ncu_test_support.hpp"
#include "subprocess/child_report.hpp"

namespace kscope {
namespace {

using testing::ScopedEnv;

subprocess::ChildReport sweep_child(const std::vector<std::string>& entered = {"vadd", "scale"}) {
  subprocess::ChildReport r;
  for (std::size_t c = 0; c < 2; ++c) {
    for (const auto& a : entered) r.trace.push_back({a, RunId{c, 0, true}});
    for (std::size_t run = 0; run < 2; ++run) {
      r.runs.push_back(RunLog{RunId{c, run, false}, entered, {}});
      for (const auto& a : entered) r.trace.push_back({a, RunId{c, run, false}});
    }
  }
  r.metadata.gpu = "NVIDIA H200";
  r.metadata.host = "gpu-host";
  return r;
}

class NcuToolTest : public ::testing::Test {
 protected:
  void prepare(const std::string& tag, const std::string& csv_fixture,
               const subprocess::ChildReport& child = sweep_child()) {
    dir_ = testing::scratch_dir("ncu_tool_" + tag);
    subprocess::write_child_report(dir_ + "canned_child.json", child);
    env_.clear();
    set("KSCOPE_NCU", testing::fixture("ncu/fake_ncu.sh"));
    set("FAKE_NCU_MODE", "report");
    set("FAKE_NCU_ARGS", dir_ + "args.txt");
    set("FAKE_NCU_CHILD", dir_ + "canned_child.json");
    if (!csv_fixture.empty()) set("FAKE_NCU_CSV", testing::fixture("ncu/" + csv_fixture));
    opt_ = Options{};
    opt_.tool = "ncu";
    opt_.runs = 2;
    opt_.warmup_runs = 1;
    opt_.verbosity = Verbosity::kSilent;
    opt_.output_prefix = dir_;
    opt_.reexec_argv = {"/work/bench", "--flag"};
  }
  void set(const char* name, const std::string& value) {
    env_.push_back(std::make_unique<ScopedEnv>(name, value));
  }
  void ncu_log(const std::string& text, int exit_status) {
    testing::write_text(dir_ + "canned.log", text);
    set("FAKE_NCU_LOG", dir_ + "canned.log");
    set("FAKE_NCU_EXIT", std::to_string(exit_status));
  }
  Results run(const std::string& name) {
    return profile(name, configs({10, 20}, "n"), [&](const Config&) { ++parent_calls_; }, opt_);
  }
  template <class E>
  std::string error_of(const std::string& name) {
    try {
      (void)run(name);
    } catch (const E& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("wrong class: ") + e.what();
    }
    return "no error";
  }

  std::string dir_;
  Options opt_;
  int parent_calls_ = 0;
  std::vector<std::unique_ptr<ScopedEnv>> env_;
};

double avg(const Results& r, const std::string& annotation, std::size_t config) {
  for (const auto& p : r.processed()) {
    if (p.annotation == annotation && p.config == config && p.metric == kTimeMetric) return p.avg;
  }
  return NAN;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void expect_sweep(const Results& r) {
  ASSERT_EQ(r.raw().size(), 8u);  // 2 annotations x 2 configs x 2 runs
  ASSERT_EQ(r.processed().size(), 4u);
  EXPECT_EQ(avg(r, "vadd", 0), 10050.0);
  EXPECT_EQ(avg(r, "vadd", 1), 11050.0);
  EXPECT_EQ(avg(r, "scale", 1), 11051.0);
  EXPECT_EQ(r.processed()[0].unit, std::optional<std::string>("ns"));
  EXPECT_EQ(r.processed()[0].kernel, "vadd");
  EXPECT_EQ(r.processed()[0].num_runs, 2u);
}

TEST_F(NcuToolTest, SweepGivesOneRowPerAnnotationConfigAndRun) {
  prepare("sweep", "kscope_sweep_payload.csv");
  const auto r = run("ncu_sweep");
  expect_sweep(r);
  EXPECT_EQ(parent_calls_, 0);  // the benchmark runs in the re-executed child only
  EXPECT_EQ(r.metadata().tool, "ncu");
  EXPECT_EQ(r.metadata().tool_version, "2025.3.1.0");
  EXPECT_EQ(r.metadata().duration_definition, "ncu");
  EXPECT_EQ(r.metadata().gpu, "NVIDIA H200");
  EXPECT_EQ(r.metadata().host, "gpu-host");

  const auto args = testing::read_text(dir_ + "args.txt");
  EXPECT_EQ(args,
            "--nvtx\n--nvtx-include\nregex:kscope@.+\n--metrics\ngpu__time_duration.sum\n"
            "--replay-mode\nkernel\n--cache-control\nall\n--clock-control\nnone\n"
            "--target-processes\nall\n-f\n-o\n" + dir_ + "ncu-output-ncu_sweep-0.ncu-rep\n"
            "--log-file\n" + dir_ + "ncu-output-ncu_sweep-0.log\n/work/bench\n--flag\n");
  // The journal holds what was measured and loads back to the same results.
  ASSERT_TRUE(std::filesystem::exists(r.journal_path()));
  EXPECT_EQ(Results::load(r.journal_path()).raw().size(), 8u);
}

TEST_F(NcuToolTest, ReportIsExportedInBaseUnits) {
  prepare("units", "kscope_sweep_payload.csv");
  set("FAKE_NCU_IMPORT_ARGS", dir_ + "import_args.txt");
  expect_sweep(run("ncu_units"));
  EXPECT_EQ(testing::read_text(dir_ + "import_args.txt"),
            "--import\n" + dir_ + "ncu-output-ncu_units-0.ncu-rep\n--csv\n--page\nraw\n"
            "--print-units\nbase\n");
}

TEST_F(NcuToolTest, AutoScaledUnitsStillGiveNanoseconds) {
  // An export in ncu's auto units ("us"), as ncu 2025.3 printed it without --print-units base.
  prepare("auto_units", "kscope_sweep_auto_units.csv");
  const auto r = run("ncu_auto_units");
  ASSERT_EQ(r.processed().size(), 4u);
  EXPECT_NEAR(avg(r, "vadd", 0), 10050.0, 1e-6);
  EXPECT_NEAR(avg(r, "scale", 1), 11051.0, 1e-6);
  for (const auto& row : r.raw()) EXPECT_EQ(row.unit, std::optional<std::string>("ns"));
}

TEST_F(NcuToolTest, WithoutPayloadResultsAreAttributedInLaunchOrder) {
  prepare("order", "kscope_sweep_no_payload.csv");
  expect_sweep(run("ncu_order"));
}

TEST_F(NcuToolTest, RangeReplayGivesKernelRange) {
  prepare("range", "kscope_range_replay.csv");
  opt_.replay_mode = "range";
  const auto r = run("ncu_range");
  ASSERT_EQ(r.raw().size(), 8u);
  for (const auto& row : r.raw()) EXPECT_EQ(row.kernel, "range");
  EXPECT_TRUE(has(testing::read_text(dir_ + "args.txt"), "--replay-mode\nrange\n"));
}

TEST_F(NcuToolTest, UnknownMetricIsInvalidArgumentEvenWhenNcuSucceeds) {
  prepare("metric", "kscope_sweep_payload.csv");
  opt_.metrics = {kTimeMetric, "not_a_metric.sum"};
  const auto e = error_of<InvalidArgument>("ncu_metric");
  EXPECT_TRUE(has(e, "Invalid value ['not_a_metric.sum'] for 'metrics' parameter")) << e;
}

TEST_F(NcuToolTest, CounterPermissionDenied) {
  prepare("perm", "");
  ncu_log("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
          "Performance Counters on the target device 0.\n", 1);
  const auto e = error_of<ToolError>("ncu_perm");
  EXPECT_TRUE(has(e, "NVreg_RestrictProfilingToAdminUsers=0")) << e;
}

TEST_F(NcuToolTest, NcuErrorLinesAreQuotedWithTheLogPath) {
  prepare("errors", "");
  set("FAKE_NCU_CHILD", "");
  ncu_log("==PROF== Connected to process 7\n==ERROR== Failed to prepare kernel for profiling\n", 2);
  const auto e = error_of<ToolError>("ncu_errors");
  EXPECT_TRUE(has(e, "==ERROR== Failed to prepare kernel for profiling")) << e;
  EXPECT_TRUE(has(e, dir_ + "ncu-output-ncu_errors-0.log")) << e;
  EXPECT_TRUE(has(e, "exit status 2")) << e;
}

// One part of the canned sweep: the child's runs and trace of `config`, and the CSV's header,
// units and that config's six results (a warm-up and two runs of two annotations).
void write_part(const std::string& parts, int n, std::size_t config) {
  subprocess::ChildReport child = sweep_child();
  child.runs.erase(std::remove_if(child.runs.begin(), child.runs.end(),
                                  [&](const RunLog& r) { return r.run.config != config; }),
                   child.runs.end());
  child.trace.erase(
      std::remove_if(child.trace.begin(), child.trace.end(),
                     [&](const subprocess::AnnotationEntry& e) { return e.run.config != config; }),
      child.trace.end());
  subprocess::write_child_report(parts + std::to_string(n) + ".child.json", child);
  std::ifstream in(testing::fixture("ncu/kscope_sweep_payload.csv"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 14u);
  std::ofstream out(parts + std::to_string(n) + ".csv");
  out << lines[0] << "\n" << lines[1] << "\n";
  for (std::size_t i = 2 + 6 * config; i < 8 + 6 * config; ++i) out << lines[i] << "\n";
}

// ncu killed mid-sweep (SIGKILL: the OOM killer, a user) in its second part: the error names the
// part and the config it started at, the first part is in the journal, and resume measures the
// rest.
TEST_F(NcuToolTest, AKilledPartIsNamedAndResumeCompletesTheSweep) {
  prepare("killed", "");
  const std::string parts = dir_ + "parts/";
  std::filesystem::create_directories(parts);
  write_part(parts, 1, 0);
  testing::write_text(parts + "2.kill", "");
  write_part(parts, 3, 1);
  set("FAKE_NCU_PARTS", parts);
  const auto e = error_of<ToolError>("ncu_killed");
  EXPECT_TRUE(has(e, "ncu ended with signal 9 (Killed) while profiling session 'ncu_killed'")) << e;
  EXPECT_TRUE(has(e, "\n(ncu part 2 of session 'ncu_killed', from config 1 (n=20) on; the 1 "
                     "config of the parts before are in the journal, and resume= with it "
                     "measures the rest)")) << e;
  const std::string journal = dir_ + "journal-ncu_killed-0.jsonl";
  const Results partial = Results::load(journal);
  EXPECT_FALSE(partial.complete());
  ASSERT_EQ(partial.processed().size(), 2u);  // config 0's two annotations
  EXPECT_EQ(avg(partial, "vadd", 0), 10050.0);

  opt_.resume = journal;
  const Results resumed = run("ncu_killed");
  EXPECT_TRUE(resumed.complete());
  expect_sweep(resumed);
}

TEST_F(NcuToolTest, AKilledFirstPartSaysNothingWasJournaled) {
  prepare("killed_first", "");
  const std::string parts = dir_ + "parts/";
  std::filesystem::create_directories(parts);
  testing::write_text(parts + "1.kill", "");
  set("FAKE_NCU_PARTS", parts);
  const auto e = error_of<ToolError>("ncu_killed_first");
  EXPECT_TRUE(has(e, "\n(ncu part 1 of session 'ncu_killed_first', from config 0 (n=10) on; no "
                     "part of this session was journaled yet)")) << e;
}

TEST_F(NcuToolTest, ErrorInTheChildIsRaisedWithItsClass) {
  auto child = sweep_child();
  child.error = "no CUDA device: cudaGetDeviceCount returned 100";
  child.error_kind = "NoDeviceError";
  prepare("child_error", "", child);
  set("FAKE_NCU_EXIT", "1");
  const auto e = error_of<NoDeviceError>("ncu_child_error");
  EXPECT_TRUE(has(e, "no CUDA device: ")) << e;
}

TEST_F(NcuToolTest, NothingProfiledAtAll) {
  prepare("nothing", "");
  ncu_log("==WARNING== No kernels were profiled.\n", 0);
  const auto e = error_of<ExtractionError>("ncu_nothing");
  EXPECT_TRUE(has(e, "No kernels were profiled")) << e;
}

TEST_F(NcuToolTest, AnnotationWithoutProfiledKernel) {
  prepare("idle", "kscope_sweep_payload.csv", sweep_child({"vadd", "scale", "idle"}));
  const auto e = error_of<ExtractionError>("ncu_idle");
  EXPECT_TRUE(has(e, "No kernels were profiled in annotation 'idle'")) << e;
}

TEST_F(NcuToolTest, ProgramThatCannotBeRerunFailsBeforeAnyWork) {
  prepare("notebook", "kscope_sweep_payload.csv");
  opt_.reexec_unavailable = "running in a Jupyter notebook";
  const auto e = error_of<NotSupportedError>("ncu_notebook");
  EXPECT_TRUE(has(e, "running in a Jupyter notebook")) << e;
  EXPECT_TRUE(has(e, "'cupti'")) << e;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "args.txt"));  // ncu never ran
}

TEST_F(NcuToolTest, RegionEntryFlushIsRefusedBeforeAnyWork) {
  prepare("region", "kscope_sweep_payload.csv");
  opt_.cache_control = "region";
  const auto e = error_of<NotSupportedError>("ncu_region");
  EXPECT_TRUE(has(e, "cache_control 'region'")) << e;
  EXPECT_TRUE(has(e, "Use 'all' or 'none' with tool 'ncu'")) << e;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "args.txt"));  // ncu never ran
}

TEST_F(NcuToolTest, NcuTooOldForRangeReplay) {
  prepare("old", "kscope_range_replay.csv");
  set("FAKE_NCU_VERSION", "2021.3.0.0");
  opt_.replay_mode = "range";
  const auto e = error_of<NotSupportedError>("ncu_old");
  EXPECT_TRUE(has(e, "ncu 2021.3.0.0 is too old for replay_mode 'range'")) << e;
}

TEST_F(NcuToolTest, ClockControlBaseIsAcceptedAndPassedOn) {
  prepare("clock", "kscope_sweep_payload.csv");
  opt_.clock_control = "base";
  expect_sweep(run("ncu_clock"));
  EXPECT_TRUE(has(testing::read_text(dir_ + "args.txt"), "--clock-control\nbase\n"));
}

}  // namespace
}  // namespace kscope
