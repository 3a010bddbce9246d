// One finished compute-sanitizer run -> findings or the error a user can act on: unsupported
// device, a crash (with the stderr tail), the program's own error, a missing or cut report, and
// reports cut by the print limit.
#include "collect/sanitizer/sanitizer_diagnosis.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "collect/ncu/ncu_test_support.hpp"
#include "collect/sanitizer/check_summary.hpp"
#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope::sanitizer {
namespace {

class SanitizerDiagnosisTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test: CTest runs the cases of this binary in parallel.
    const std::string dir =
        testing::scratch_dir(std::string("sanitizer_diagnosis_") +
                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    facts_.files = sanitizer_files(dir, "memcheck", "vadd", 0);
    facts_.marker = subprocess::ChildMarker{"vadd", 0, facts_.files.child_report};
    facts_.check = "memcheck";
    facts_.part = "all configs";
    facts_.print_limit = 1000;
    facts_.outcome.process.exit_code = 0;
    subprocess::ChildReport report;
    report.trace = {{"vadd", RunId{0, 0, false}}};
    facts_.outcome.report = report;
  }
  void report_xml(const std::string& fixture) {
    std::filesystem::copy_file(testing::fixture("sanitizer/" + fixture), facts_.files.xml,
                               std::filesystem::copy_options::overwrite_existing);
  }
  template <class E = ToolError>
  std::string error() {
    return testing::error_text<E>([&] { (void)interpret_sanitizer_run(facts_); });
  }
  SanitizerRunFacts facts_;
};

bool has(const std::string& text, const std::string& part) { return testing::contains(text, part); }

TEST_F(SanitizerDiagnosisTest, CleanRun) {
  report_xml("memcheck_clean.xml");
  const CheckRun r = interpret_sanitizer_run(facts_);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_TRUE(r.reported);
  EXPECT_EQ(r.trace.size(), 1u);
  EXPECT_TRUE(r.ended_early.empty());
  EXPECT_FALSE(r.truncated);
}

TEST_F(SanitizerDiagnosisTest, FindingsWithTheFoundExitStatus) {
  report_xml("memcheck_oob.xml");
  facts_.outcome.process.exit_code = kFoundErrorsExitCode;
  const CheckRun r = interpret_sanitizer_run(facts_);
  EXPECT_EQ(r.findings.size(), 2u);
  EXPECT_TRUE(r.ended_early.empty());
}

TEST_F(SanitizerDiagnosisTest, ProgramStoppedByTheErrorIsNotAFailure) {
  report_xml("memcheck_oob.xml");
  facts_.outcome.process.exit_code = kFoundErrorsExitCode;
  facts_.outcome.report->error =
      "CUDA call cudaDeviceSynchronize() failed with cudaErrorLaunchFailure";
  facts_.outcome.report->error_kind = "Error";
  const CheckRun r = interpret_sanitizer_run(facts_);
  EXPECT_EQ(r.findings.size(), 2u);
  EXPECT_TRUE(has(r.ended_early, "cudaErrorLaunchFailure"));

  facts_.outcome.report.reset();  // the program exited on its own (exit(1) after the error)
  const CheckRun gone = interpret_sanitizer_run(facts_);
  EXPECT_FALSE(gone.reported);
  EXPECT_TRUE(has(gone.ended_early, "before kscope's session finished"));
}

TEST_F(SanitizerDiagnosisTest, DeviceNotSupported) {
  testing::write_text(facts_.files.log, "========= Error: Device not supported\n");
  facts_.outcome.process.exit_code = 1;
  const auto e = error();
  EXPECT_TRUE(has(e, "compute-sanitizer cannot check this GPU: it reported 'Device not supported'"))
      << e;
  EXPECT_TRUE(has(e, "session 'vadd' (call 0, all configs)")) << e;
  EXPECT_TRUE(has(e, "tool 'cupti'")) << e;
  EXPECT_TRUE(device_not_supported("==ERROR== device NOT supported"));
  EXPECT_FALSE(device_not_supported("ERROR SUMMARY: 0 errors"));
}

TEST_F(SanitizerDiagnosisTest, DeviceNotSupportedOnStderrToo) {
  facts_.outcome.process.exit_code = 1;
  facts_.outcome.process.stderr_tail = {"========= Error: Device not supported"};
  EXPECT_TRUE(has(error(), "Device not supported"));
}

TEST_F(SanitizerDiagnosisTest, CrashWithoutFindingsQuotesStderr) {
  report_xml("memcheck_clean.xml");
  facts_.outcome.report.reset();
  facts_.outcome.process.exit_code = -1;
  facts_.outcome.process.signal = 11;
  facts_.outcome.process.stderr_tail = {"Segmentation fault in user code", "last words"};
  const auto e = error();
  EXPECT_TRUE(has(e, "the program crashed under compute-sanitizer (signal 11")) << e;
  EXPECT_TRUE(has(e, "Last lines of its stderr:\n  Segmentation fault in user code\n  last words"))
      << e;
  EXPECT_TRUE(has(e, facts_.files.log)) << e;
}

TEST_F(SanitizerDiagnosisTest, NoReportAtAllQuotesStderr) {
  facts_.outcome.report.reset();
  facts_.outcome.process.exit_code = 255;
  facts_.outcome.process.stderr_tail = {"boom"};
  const auto e = error();
  EXPECT_TRUE(has(e, "compute-sanitizer ended with exit status 255 and wrote no report")) << e;
  EXPECT_TRUE(has(e, "boom")) << e;
}

TEST_F(SanitizerDiagnosisTest, ProgramErrorIsRelayedWithItsClass) {
  report_xml("memcheck_clean.xml");
  facts_.outcome.process.exit_code = 1;
  facts_.outcome.report->error = "no CUDA device: no GPU";
  facts_.outcome.report->error_kind = "NoDeviceError";
  const auto e = error<NoDeviceError>();
  EXPECT_TRUE(has(e, "no CUDA device: no GPU")) << e;
  EXPECT_TRUE(has(e, "re-run under compute-sanitizer")) << e;
}

TEST_F(SanitizerDiagnosisTest, ProgramThatNeverRanTheSession) {
  report_xml("memcheck_clean.xml");
  facts_.outcome.report.reset();
  EXPECT_TRUE(has(error(), "never ran session 'vadd' (call 0)"));
}

TEST_F(SanitizerDiagnosisTest, CutReportSaysItWasProbablyKilled) {
  report_xml("memcheck_truncated.xml");
  facts_.outcome.process.exit_code = -1;
  facts_.outcome.process.signal = 9;
  const auto e = error();
  EXPECT_TRUE(has(e, "truncated")) << e;
  EXPECT_TRUE(has(e, "killed")) << e;
}

TEST_F(SanitizerDiagnosisTest, PrintLimitReached) {
  report_xml("memcheck_oob.xml");  // cut to 2 records by --print-limit 2
  facts_.outcome.process.exit_code = kFoundErrorsExitCode;
  facts_.print_limit = 2;
  EXPECT_TRUE(interpret_sanitizer_run(facts_).truncated);  // at the limit, no summary
  testing::write_text(facts_.files.log, "========= ERROR SUMMARY: 32 errors\n");
  EXPECT_TRUE(interpret_sanitizer_run(facts_).truncated);  // 32 errors, 2 records
  testing::write_text(facts_.files.log, "========= ERROR SUMMARY: 2 errors\n");
  EXPECT_FALSE(interpret_sanitizer_run(facts_).truncated);  // exactly 2 found
  // Below the limit nothing was cut, whatever the summary counts (with --leak-check full it
  // counts leaks, and the first GPU run warned wrongly: 8 records, limit 1000).
  facts_.print_limit = 100;
  testing::write_text(facts_.files.log, "========= ERROR SUMMARY: 32 errors\n");
  EXPECT_FALSE(interpret_sanitizer_run(facts_).truncated);
  facts_.print_limit = 0;  // no limit: never cut
  EXPECT_FALSE(interpret_sanitizer_run(facts_).truncated);

  EXPECT_FALSE(reached_print_limit(999, 1000, ""));
  EXPECT_TRUE(reached_print_limit(1000, 1000, ""));
  EXPECT_TRUE(reached_print_limit(1000, 1000, "========= ERROR SUMMARY: 5000 errors\n"));
  EXPECT_FALSE(reached_print_limit(1000, 1000, "========= ERROR SUMMARY: 1000 errors\n"));
  EXPECT_FALSE(reached_print_limit(5000, 0, ""));
  EXPECT_EQ(error_summary_count("x\n========= ERROR SUMMARY: 1234 errors\n"), 1234);
  EXPECT_EQ(error_summary_count("nothing"), -1);

  const auto w = truncation_warning("memcheck", 100);
  EXPECT_TRUE(has(w, "stopped reporting at sanitizer_print_limit=100")) << w;
  EXPECT_TRUE(has(w, "Raise Options::sanitizer.print_limit")) << w;
}

TEST_F(SanitizerDiagnosisTest, TimeoutIsAToolError) {
  facts_.outcome.process.timed_out = true;
  EXPECT_TRUE(has(error(), "did not finish"));
}

TEST(CheckSummaryTest, OneLinePerCheck) {
  EXPECT_EQ(check_summary("memcheck", {}), "memcheck: clean");
  Finding a;
  a.check = "memcheck";
  a.category = "Precise";
  a.severity = "Error";
  a.kernel = "oob";
  Finding b = a;
  b.kernel = "scale";
  Finding leak;
  leak.check = "memcheck";
  leak.category = "Leak";
  leak.size = 1024;
  Finding race;
  race.check = "racecheck";
  race.severity = "Warning";
  race.kernel = "race";
  EXPECT_EQ(check_summary("memcheck", {a, a, b, leak, race}),
            "memcheck: 3 errors in 2 kernels (oob, scale); 1 leak (1024 bytes)");
  EXPECT_EQ(check_summary("racecheck", {a, race}), "racecheck: 1 warning in 1 kernel (race)");
  EXPECT_EQ(check_summary("memcheck", {leak}), "memcheck: 1 leak (1024 bytes)");
  EXPECT_EQ(check_summary("initcheck", {a}), "initcheck: clean");
}

TEST(CheckSummaryTest, FailedApiCallsAreNotErrorsOfAKernel) {
  Finding oob;
  oob.check = "memcheck";
  oob.category = "Precise";
  oob.severity = "Error";
  oob.kernel = "write_indices";
  auto failed = [](const std::string& call) {
    Finding f;
    f.check = "memcheck";
    f.category = "ApiError";
    f.severity = "Error";
    f.function = call;
    return f;
  };
  Finding leak;
  leak.check = "memcheck";
  leak.category = "Leak";
  leak.size = 4000;
  EXPECT_EQ(check_summary("memcheck", {oob, failed("cudaDeviceSynchronize"), failed("cudaFree"),
                                       failed("cudaFree"), leak}),
            "memcheck: 1 error in 1 kernel (write_indices); 1 leak (4000 bytes); 3 CUDA API calls "
            "failed after the first error (cudaDeviceSynchronize, cudaFree)");
  // Failed calls alone: no first error to follow, and not clean.
  EXPECT_EQ(check_summary("memcheck", {failed("cudaMalloc")}),
            "memcheck: 1 CUDA API call failed (cudaMalloc)");
}

}  // namespace
}  // namespace kscope::sanitizer
