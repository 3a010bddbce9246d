// kscope::profile with tool "sanitizer" and kscope::sanitize, end to end on the CPU: a fake
// compute-sanitizer (fake_compute_sanitizer.sh) leaves, for each narrowing run the tool asks for
// (KSCOPE_CHILD_SCOPE), a canned report and child report where compute-sanitizer and the re-run
// program would. Everything the parent does is real: locating the tool, its version, the command
// lines, diagnosis, the narrowing runs, attribution and the results.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <sstream>

#include "collect/ncu/ncu_test_support.hpp"
#include "collect/tool_registry.hpp"
#include "core/tool_checks.hpp"
#include "kscope/kscope.hpp"
#include "subprocess/child_report.hpp"
#include "support/error_text.hpp"

namespace kscope {
namespace {

using testing::ScopedEnv;

bool has(const std::string& text, const std::string& part) { return testing::contains(text, part); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class SanitizerToolTest : public ::testing::Test {
 protected:
  void prepare(const std::string& tag) {
    dir_ = testing::scratch_dir("sanitizer_tool_" + tag);
    canned_ = dir_ + "canned/";
    std::filesystem::create_directories(canned_);
    env_.clear();
    set("KSCOPE_COMPUTE_SANITIZER", testing::fixture("sanitizer/fake_compute_sanitizer.sh"));
    set("FAKE_SAN_DIR", canned_);
    set("FAKE_SAN_ARGS", dir_ + "args.txt");
    opt_ = Options{};
    opt_.tool = "sanitizer";
    opt_.verbosity = Verbosity::kSilent;
    opt_.output_prefix = dir_;
    opt_.reexec_argv = {"/work/bench", "--size", "a b"};
    opt_.on_warning = [this](std::string_view w) { warnings_.emplace_back(w); };
  }
  void set(const char* name, const std::string& value) {
    env_.push_back(std::make_unique<ScopedEnv>(name, value));
  }
  // The canned outcome of the run with child scope `key` (see the fake's header): `xml` a fixture
  // name ("" for none), the annotations the child entered in configs `entered`, its exit status.
  void outcome(const std::string& key, const std::string& xml, std::vector<std::size_t> entered,
               int exit_status, const std::string& error = "") {
    if (!xml.empty()) {
      std::filesystem::copy_file(testing::fixture("sanitizer/" + xml), canned_ + key + ".xml",
                                 std::filesystem::copy_options::overwrite_existing);
    }
    subprocess::ChildReport child;
    for (auto c : entered) child.trace.push_back({"scale", RunId{c, 0, false}});
    child.metadata.gpu = "NVIDIA H200";
    child.metadata.host = "gpu-host";
    child.error = error;
    child.error_kind = error.empty() ? "" : "Error";
    subprocess::write_child_report(canned_ + key + ".child.json", child);
    testing::write_text(canned_ + key + ".exit", std::to_string(exit_status));
  }
  Results run(const std::string& name) {
    return profile(
        name, configs({1024, 3000, 4096}, "n"), [&](const Config&) { ++parent_calls_; }, opt_);
  }
  std::vector<std::string> runs() { return lines_of(testing::read_text(canned_ + "runs.txt")); }

  std::string dir_, canned_;
  Options opt_;
  int parent_calls_ = 0;
  std::vector<std::string> warnings_;
  std::vector<std::unique_ptr<ScopedEnv>> env_;
};

TEST_F(SanitizerToolTest, CleanSweepIsOneRunAndOk) {
  prepare("clean");
  outcome("once_release", "memcheck_clean.xml", {0, 1, 2}, 0);
  const auto r = run("clean");
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.findings().empty());
  EXPECT_TRUE(r.raw().empty());
  EXPECT_TRUE(r.processed().empty());
  EXPECT_EQ(parent_calls_, 0);  // the benchmark runs in the re-executed child only
  EXPECT_EQ(r.metadata().tool, "sanitizer");
  EXPECT_EQ(r.metadata().tool_version, "2025.3.1.0");
  EXPECT_EQ(r.metadata().gpu, "NVIDIA H200");
  EXPECT_EQ(runs(), std::vector<std::string>{"once_release"});
  const auto args = lines_of(testing::read_text(dir_ + "args.txt"));
  const std::vector<std::string> expected = {"--tool",
                                             "memcheck",
                                             "--leak-check",
                                             "no",
                                             "--error-exitcode",
                                             "86",
                                             "--print-limit",
                                             "1000",
                                             "--xml",
                                             "--save",
                                             dir_ + "sanitizer-memcheck-clean-0.xml",
                                             "--log-file",
                                             dir_ + "sanitizer-memcheck-clean-0.log",
                                             "/work/bench",
                                             "--size",
                                             "a b",
                                             "--"};
  EXPECT_EQ(args, expected);
}

// compute-sanitizer killed (SIGKILL: the OOM killer, a user) in the sweep's second check: the
// error names the status, the check's report, the session and the part; the journal is closed
// with it.
TEST_F(SanitizerToolTest, AKilledCheckIsNamedWithItsPart) {
  prepare("killed");
  opt_.sanitizer.checks = {"memcheck", "racecheck"};
  outcome("once_release", "memcheck_clean.xml", {0, 1, 2}, 0);
  testing::write_text(canned_ + "once_release.kill", "racecheck");
  try {
    (void)run("killed");
    FAIL() << "expected ToolError";
  } catch (const ToolError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "compute-sanitizer ended with signal 9 (Killed) and wrote no report (" + dir_ +
                      "sanitizer-racecheck-killed-0.xml) while checking session 'killed' (call "
                      "0, all configs).",
                  0),
              0u)
        << e.what();
  }
  EXPECT_EQ(runs(), (std::vector<std::string>{"once_release", "once_release"}));
  const std::string journal = testing::read_text(dir_ + "journal-killed-0.jsonl");
  EXPECT_TRUE(has(journal, "{\"kind\":\"end\",\"error\":\"compute-sanitizer ended with signal 9"))
      << journal;
}

TEST_F(SanitizerToolTest, OnlyTheBuggyConfigIsNamed) {
  prepare("sweep");
  outcome("once_release", "memcheck_oob.xml", {0, 1}, 86, "CUDA error: unspecified launch failure");
  outcome("configs-0_once_release", "memcheck_clean.xml", {0}, 0);
  outcome("configs-1_once_release", "memcheck_oob.xml", {1}, 86);
  outcome("configs-2_once_release", "memcheck_clean.xml", {2}, 0);
  outcome("configs-1_once_stop-1_release", "memcheck_clean.xml", {1}, 0);
  outcome("configs-1_once_stop-2_release", "memcheck_oob.xml", {1}, 86);
  const auto r = run("sweep");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.findings().size(), 2u);
  for (const auto& f : r.findings()) {
    EXPECT_EQ(f.check, "memcheck");
    EXPECT_EQ(f.kernel, "oob");
    EXPECT_EQ(f.annotation, "scale");
    EXPECT_EQ(f.config, std::optional<std::size_t>(1));
    EXPECT_EQ(f.run, std::optional<std::size_t>(0));
    EXPECT_EQ(f.attribution, "annotation");
  }
  // The sweep, each config alone, and config 1 stopped at the entry and exit of "scale".
  EXPECT_EQ(runs(),
            (std::vector<std::string>{"once_release", "configs-0_once_release",
                                      "configs-1_once_release", "configs-1_once_stop-1_release",
                                      "configs-1_once_stop-2_release", "configs-2_once_release"}));
  // Every narrowing run leaves its own files.
  EXPECT_TRUE(std::filesystem::exists(dir_ + "sanitizer-memcheck-sweep-0.config1.stop2.xml"));
  std::ostringstream table;
  r.print(table);
  EXPECT_TRUE(has(table.str(), "scale       3000  oob")) << table.str();
  // The journal keeps the findings too (issue 15, defect 1: it said ok, 0 findings).
  const Results loaded = Results::load(r.journal_path());
  EXPECT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.findings().size(), 2u);
  EXPECT_EQ(loaded.findings()[0].kernel, "oob");
  EXPECT_EQ(loaded.findings()[0].config, std::optional<std::size_t>(1));
  EXPECT_TRUE(loaded.complete());
}

// As on the first GPU run: the out-of-bounds write broke the context, so compute-sanitizer also
// reported the CUDA calls that failed afterwards, the stopped runs' own calls included; with
// --leak-check full its ERROR SUMMARY counts more than the records, far below the print limit.
TEST_F(SanitizerToolTest, FailedApiCallsAreKeptAsTheErrorsConsequences) {
  prepare("api");
  const std::string xml = "memcheck_oob_api_errors.xml";
  const std::string error = "CUDA error: unspecified launch failure";
  outcome("once_release", xml, {0, 1}, 86, error);
  outcome("configs-0_once_release", "memcheck_clean.xml", {0}, 0);
  outcome("configs-1_once_release", xml, {1}, 86, error);
  outcome("configs-2_once_release", "memcheck_clean.xml", {2}, 0);
  outcome("configs-1_once_stop-1_release", "memcheck_clean.xml", {1}, 0);
  outcome("configs-1_once_stop-2_release", xml, {1}, 86, error);
  for (const char* key : {"once_release", "configs-1_once_release"}) {
    testing::write_text(canned_ + key + ".log", "========= ERROR SUMMARY: 9 errors\n");
  }
  const auto r = run("api");
  ASSERT_EQ(r.findings().size(), 4u);
  const Finding& oob = r.findings()[0];
  EXPECT_EQ(oob.kernel, "oob");
  EXPECT_EQ(oob.annotation, "scale");
  EXPECT_EQ(oob.attribution, "annotation");
  for (std::size_t i = 1; i < 4; ++i) {
    const Finding& f = r.findings()[i];
    EXPECT_EQ(f.category, "ApiError");
    EXPECT_EQ(f.config, std::optional<std::size_t>(1));
    EXPECT_EQ(f.annotation, "");
    EXPECT_EQ(f.attribution, "run");
  }
  EXPECT_EQ(runs(),
            (std::vector<std::string>{"once_release", "configs-0_once_release",
                                      "configs-1_once_release", "configs-1_once_stop-1_release",
                                      "configs-1_once_stop-2_release", "configs-2_once_release"}));
  // Only the note that config 1's run ended early: no print-limit warning.
  ASSERT_EQ(warnings_.size(), 1u) << warnings_.back();
  EXPECT_TRUE(has(warnings_[0], "memcheck, config 1: the program's run ended")) << warnings_[0];
  std::ostringstream table;
  r.print(table);
  EXPECT_TRUE(has(table.str(), "Kernel  Category  Kind")) << table.str();
  EXPECT_TRUE(has(table.str(), "-       ApiError  Program hit cudaErrorLaunchFailure"))
      << table.str();
  EXPECT_TRUE(has(table.str(), "cudaDeviceSynchronize  run")) << table.str();  // where: the call
}

TEST_F(SanitizerToolTest, SanitizeChecksEachConfigOnceWithEveryCheck) {
  prepare("sanitize");
  outcome("once_release", "memcheck_clean.xml", {0, 1, 2}, 0);
  opt_.runs = 7;
  opt_.warmup_runs = 2;
  opt_.tool = "cupti";  // sanitize() picks the tool itself
  opt_.sanitizer.checks = {"memcheck", "racecheck"};
  opt_.sanitizer.leak_check = true;
  const auto r = sanitize(
      "checked", configs({1, 2, 3}, "n"), [](const Config&) {}, opt_);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.options().tool, "sanitizer");
  EXPECT_EQ(r.options().runs, 1);
  EXPECT_EQ(r.options().warmup_runs, 0);
  EXPECT_EQ(runs(), (std::vector<std::string>{"once_release", "once_release"}));
  const std::string args = testing::read_text(dir_ + "args.txt");
  EXPECT_TRUE(has(args, "--tool\nmemcheck\n--leak-check\nfull\n")) << args;
  EXPECT_TRUE(has(args, "--tool\nracecheck\n--racecheck-report\nanalysis\n")) << args;
}

TEST_F(SanitizerToolTest, StoppedRunsDoNotCheckLeaks) {
  prepare("leaks");
  opt_.sanitizer.leak_check = true;
  outcome("once_release", "memcheck_oob.xml", {0}, 86);
  outcome("configs-0_once_release", "memcheck_oob.xml", {0}, 86);
  outcome("configs-1_once_release", "memcheck_clean.xml", {1}, 0);
  outcome("configs-2_once_release", "memcheck_clean.xml", {2}, 0);
  outcome("configs-0_once_stop-1_release", "memcheck_oob.xml", {0}, 86);
  const auto r = run("leaks");
  ASSERT_EQ(r.findings().size(), 2u);
  EXPECT_EQ(r.findings()[0].attribution, "outside");  // found before the annotation was entered
  const auto blocks = testing::read_text(dir_ + "args.txt");
  std::size_t full = 0, no = 0;
  for (std::size_t at = 0; (at = blocks.find("--leak-check\nfull", at)) != std::string::npos; ++at)
    ++full;
  for (std::size_t at = 0; (at = blocks.find("--leak-check\nno", at)) != std::string::npos; ++at)
    ++no;
  EXPECT_EQ(full, 4u);  // the sweep and each config
  EXPECT_EQ(no, 1u);    // the run stopped at a boundary
}

TEST_F(SanitizerToolTest, PrintLimitReachedIsAWarning) {
  prepare("limit");
  opt_.sanitizer.print_limit = 2;
  outcome("once_release", "memcheck_clean.xml", {0}, 0);
  testing::write_text(canned_ + "once_release.log", "========= ERROR SUMMARY: 0 errors\n");
  (void)run("limit");
  EXPECT_TRUE(warnings_.empty());
  outcome("once_release", "memcheck_oob.xml", {0}, 86);
  outcome("configs-0_once_release", "memcheck_oob.xml", {0}, 86);
  outcome("configs-1_once_release", "memcheck_clean.xml", {1}, 0);
  outcome("configs-2_once_release", "memcheck_clean.xml", {2}, 0);
  outcome("configs-0_once_stop-1_release", "memcheck_clean.xml", {0}, 0);
  outcome("configs-0_once_stop-2_release", "memcheck_oob.xml", {0}, 86);
  const auto r = run("limit");
  EXPECT_EQ(r.findings().size(), 2u);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_TRUE(has(warnings_[0],
                  "memcheck: compute-sanitizer stopped reporting at "
                  "sanitizer_print_limit=2"))
      << warnings_[0];
}

TEST_F(SanitizerToolTest, DeviceNotSupportedIsAToolError) {
  prepare("unsupported");
  testing::write_text(canned_ + "once_release.log", "========= Error: Device not supported\n");
  testing::write_text(canned_ + "once_release.exit", "1");
  const auto e = testing::error_text<ToolError>([&] { (void)run("unsupported"); });
  EXPECT_TRUE(has(e, "Device not supported")) << e;
}

TEST_F(SanitizerToolTest, ProgramErrorWithoutFindingsIsRelayed) {
  prepare("program_error");
  outcome("once_release", "memcheck_clean.xml", {}, 1, "the benchmark threw: bad config");
  const auto e = testing::error_text<Error>([&] { (void)run("program_error"); });
  EXPECT_TRUE(has(e, "the benchmark threw: bad config")) << e;
}

TEST_F(SanitizerToolTest, MissingOrUnusableComputeSanitizer) {
  prepare("missing");
  set("KSCOPE_COMPUTE_SANITIZER", dir_ + "no-such-file");
  const auto e = testing::error_text<ToolError>([&] { (void)run("missing"); });
  EXPECT_TRUE(has(e, "KSCOPE_COMPUTE_SANITIZER='" + dir_ + "no-such-file'")) << e;
  EXPECT_FALSE(std::filesystem::exists(canned_ + "runs.txt"));
}

TEST_F(SanitizerToolTest, ProgramThatCannotBeReRunIsRefusedBeforeAnyWork) {
  prepare("notebook");
  opt_.reexec_unavailable = "running in a Jupyter notebook";
  const auto e = testing::error_text<NotSupportedError>([&] { (void)run("notebook"); });
  EXPECT_TRUE(has(e, "tool 'sanitizer'")) << e;
  EXPECT_TRUE(has(e, "Jupyter notebook")) << e;
  EXPECT_TRUE(has(e, "Use tool 'cupti'")) << e;
  EXPECT_FALSE(std::filesystem::exists(canned_ + "runs.txt"));
}

TEST_F(SanitizerToolTest, SanitizerIsAnAvailableTool) {
  const auto tools = available_tools();
  EXPECT_NE(std::find(tools.begin(), tools.end(), "sanitizer"), tools.end());
}

// Its registry entry says that it checks rather than measures, which the readers of result files
// ask by name (Results::checked()); the measuring tools and unknown names do not check.
TEST_F(SanitizerToolTest, OnlyTheSanitizerChecks) {
  EXPECT_TRUE(find_tool("sanitizer").checks);
  EXPECT_TRUE(tool_checks("sanitizer"));
  EXPECT_FALSE(tool_checks("cupti"));
  EXPECT_FALSE(tool_checks("ncu"));
  EXPECT_FALSE(tool_checks(""));
  EXPECT_FALSE(tool_checks("no such tool"));
}

}  // namespace
}  // namespace kscope
