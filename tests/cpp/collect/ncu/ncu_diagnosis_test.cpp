// Every way an ncu run can fail becomes the error a user can act on.
#include "collect/ncu/ncu_diagnosis.hpp"

#include <gtest/gtest.h>

#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

// A run that worked: exit 0, the child reported, the report exists.
NcuRunFacts good_run() {
  NcuRunFacts f;
  f.outcome.process.exit_code = 0;
  f.outcome.report = subprocess::ChildReport{};
  f.marker = subprocess::ChildMarker{"vadd", 1, "/out/ncu-output-vadd-1.child.json"};
  f.paths = ncu_paths("/out/", "vadd", 1);
  f.metrics = {kTimeMetric};
  f.report_exists = true;
  return f;
}

template <class E>
std::string error_of(const NcuRunFacts& f) {
  try {
    diagnose_ncu_run(f);
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong class: ") + e.what();
  }
  return "no error";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(NcuDiagnosisTest, SuccessfulRunPasses) { EXPECT_NO_THROW(diagnose_ncu_run(good_run())); }

TEST(NcuDiagnosisTest, AnAnnotationWithAQuoteIsNamed) {
  NcuRunFacts f = good_run();
  f.outcome.report->trace.push_back({"va\"x", RunId{0, 0, false}});
  EXPECT_EQ(error_of<NotSupportedError>(f),
            "annotation 'va\"x' contains '\"', which ncu's report cannot carry (its NVTX column "
            "does not escape quotes). Rename the annotation, or use tool 'cupti'.");
}

TEST(NcuDiagnosisTest, CounterPermissionExplainsTheDriverSetting) {
  auto f = good_run();
  f.log = parse_ncu_log("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n");
  f.outcome.process.exit_code = 1;
  const auto e = error_of<ToolError>(f);
  EXPECT_TRUE(has(e, "ERR_NVGPUCTRPERM")) << e;
  EXPECT_TRUE(has(e, "NVreg_RestrictProfilingToAdminUsers=0")) << e;
  EXPECT_TRUE(has(e, "/out/ncu-output-vadd-1.log")) << e;
}

TEST(NcuDiagnosisTest, UnknownMetricUsesTheReferenceText) {
  auto f = good_run();
  f.metrics = {"not_a_metric", kTimeMetric};
  f.log = parse_ncu_log("==ERROR== Failed to find metric regex:^not_a_metric$\n");
  const auto e = error_of<InvalidArgument>(f);
  EXPECT_TRUE(has(e, "Invalid value ['not_a_metric'] for 'metrics' parameter")) << e;
  EXPECT_TRUE(has(e, "ncu --query-metrics")) << e;
  EXPECT_TRUE(has(e, "==ERROR== Failed to find metric")) << e;
}

TEST(NcuDiagnosisTest, ChildErrorComesBackWithItsClass) {
  auto f = good_run();
  f.outcome.process.exit_code = 1;
  f.outcome.report->error = "no CUDA device: cudaGetDeviceCount failed";
  f.outcome.report->error_kind = "NoDeviceError";
  f.log = parse_ncu_log("==ERROR== The application returned an error code (1).\n");
  const auto e = error_of<NoDeviceError>(f);
  EXPECT_TRUE(has(e, "no CUDA device: ")) << e;
  EXPECT_TRUE(has(e, "re-run under ncu for session 'vadd' (call 1)")) << e;
}

TEST(NcuDiagnosisTest, FailedNcuQuotesItsErrorsTheLogAndTheStderrTail) {
  auto f = good_run();
  f.outcome.process.exit_code = 9;
  f.outcome.process.stderr_tail = {"Segmentation fault in user code"};
  f.outcome.report.reset();
  f.log = parse_ncu_log("==PROF== Connected\n==ERROR== An error occurred while trying to profile.\n");
  const auto e = error_of<ToolError>(f);
  EXPECT_TRUE(has(e, "exit status 9")) << e;
  EXPECT_TRUE(has(e, "  ==ERROR== An error occurred while trying to profile.")) << e;
  EXPECT_TRUE(has(e, "(ncu's full log: /out/ncu-output-vadd-1.log)")) << e;
  EXPECT_TRUE(has(e, "Segmentation fault in user code")) << e;
}

TEST(NcuDiagnosisTest, FailedNcuSaysWhichKernelItWasProfiling) {
  // What the GPU machine showed for an out-of-bounds kernel: the driver's LaunchFailed, nothing
  // on stderr. The ==PROF== lines say where it happened.
  auto f = good_run();
  f.outcome.process.exit_code = 9;
  f.outcome.report.reset();
  f.log = parse_ncu_log(
      "==PROF== Connected to process 7 (/work/app)\n"
      "==PROF== Profiling \"vadd_kernel\" - 3: 0%....50%....100% - 1 pass\n"
      "==PROF== Profiling \"vadd_kernel\" - 4: 0%....50%\n"
      "==ERROR== An error was reported by the driver:\n==ERROR== LaunchFailed\n"
      "==ERROR== The application returned an error code (9).\n");
  const auto e = error_of<ToolError>(f);
  EXPECT_TRUE(has(e, "  ==ERROR== LaunchFailed")) << e;
  EXPECT_TRUE(has(e, "ncu's last progress lines:\n  ==PROF== Connected to process 7")) << e;
  EXPECT_TRUE(has(e, "  ==PROF== Profiling \"vadd_kernel\" - 4: 0%....50%\n")) << e;
  EXPECT_TRUE(has(e, "printed nothing on stderr")) << e;
}

TEST(NcuDiagnosisTest, ErrorLinesFailTheRunEvenWithExitStatusZero) {
  auto f = good_run();
  f.log = parse_ncu_log("==ERROR== Invalid configuration for nvtx-include\n");
  const auto e = error_of<ToolError>(f);
  EXPECT_TRUE(has(e, "reported errors")) << e;
  EXPECT_TRUE(has(e, "Invalid configuration for nvtx-include")) << e;
}

TEST(NcuDiagnosisTest, ChildThatNeverRanTheSession) {
  auto f = good_run();
  f.outcome.report.reset();
  EXPECT_TRUE(has(error_of<ToolError>(f), "never ran session 'vadd' (call 1)"));
}

TEST(NcuDiagnosisTest, NothingProfiledIsAnExtractionError) {
  auto f = good_run();
  f.report_exists = false;
  f.log = parse_ncu_log("==WARNING== No kernels were profiled.\n");
  const auto e = error_of<ExtractionError>(f);
  EXPECT_TRUE(has(e, "No kernels were profiled")) << e;
  EXPECT_TRUE(has(e, "regex:kscope@.+")) << e;
  f.log = {};
  EXPECT_TRUE(has(error_of<ToolError>(f), "wrote no report at '/out/ncu-output-vadd-1.ncu-rep'"));
}

TEST(NcuDiagnosisTest, TimeoutIsAToolError) {
  auto f = good_run();
  f.outcome.process.timed_out = true;
  EXPECT_TRUE(has(error_of<ToolError>(f), "did not finish"));
}

}  // namespace
}  // namespace kscope::ncu
