// compute-sanitizer XML reports -> findings, on every fixture (real 2025.3.1 output from an H200
// where there is one, tests/fixtures/sanitizer/README.md) and on broken reports.
#include "collect/sanitizer/sanitizer_report.hpp"

#include <gtest/gtest.h>

#include "collect/ncu/ncu_test_support.hpp"
#include "collect/sanitizer/finding_attribution.hpp"
#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope::sanitizer {
namespace {

std::vector<Finding> fixture(const std::string& name, const std::string& check) {
  return read_sanitizer_report(testing::fixture("sanitizer/" + name), check);
}

TEST(SanitizerReportTest, MemcheckOutOfBoundsWrites) {
  const auto fs = fixture("memcheck_oob.xml", "memcheck");
  ASSERT_EQ(fs.size(), 2u);
  const Finding& f = fs[0];
  EXPECT_EQ(f.check, "memcheck");
  EXPECT_EQ(f.category, "Precise");
  EXPECT_EQ(f.severity, "Error");
  EXPECT_EQ(f.kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(f.detail, "out of bounds");
  EXPECT_EQ(f.kernel, "oob");  // from __device_stub__Z3oobPii
  EXPECT_EQ(f.function, "oob");
  EXPECT_EQ(f.pc, std::optional<std::uint64_t>(0xa0));
  ASSERT_TRUE(f.thread && f.block);
  EXPECT_EQ(*f.thread, (Dim3{0, 0, 0}));
  EXPECT_EQ(*fs[1].thread, (Dim3{1, 0, 0}));
  EXPECT_EQ(*f.block, (Dim3{0, 0, 0}));
  EXPECT_EQ(f.address, std::optional<std::uint64_t>(0x7efb9c800000ULL));
  EXPECT_EQ(fs[1].address, std::optional<std::uint64_t>(0x7efb9c800004ULL));
  EXPECT_EQ(f.size, std::optional<std::uint64_t>(4));
  EXPECT_EQ(f.file, "/src/probes/cs_bugs.cu");
  EXPECT_EQ(f.line, std::optional<int>(5));
  EXPECT_EQ(f.count, 1u);
  ASSERT_EQ(f.host_stack.size(), 10u);
  EXPECT_EQ(f.host_stack[0], "cuLaunchKernel (/usr/local/nvidia/lib64/libcuda.so.1+0x39fb94)");
  EXPECT_EQ(f.host_stack[4], "__device_stub__Z3oobPii (/tmp/cs_bugs+0x9104)");
  EXPECT_EQ(f.host_stack[7], "?? (/lib/x86_64-linux-gnu/libc.so.6+0x2a1c9)");
  EXPECT_TRUE(f.annotation.empty());
  EXPECT_FALSE(f.config.has_value());
  EXPECT_NE(finding_signature(fs[0]), finding_signature(fs[1]));  // other thread
}

// A source path and a function name that are not UTF-8 (a Latin-1 file name, a corrupt report)
// are carried with "\xNN" escapes, so that JSON and Python can hold them (issue 15, defect 4:
// JSON output aborted with type_error.316).
TEST(SanitizerReportTest, NamesThatAreNotUtf8AreEscaped) {
  std::string xml = testing::fixture_text("sanitizer/memcheck_oob.xml");
  const std::string path = "/src/probes/cs_bugs.cu";
  for (std::size_t at = xml.find(path); at != std::string::npos; at = xml.find(path, at)) {
    xml.replace(at, path.size(), "/src/caf\xE9/cs_bugs.cu");
  }
  const auto fs = parse_sanitizer_report(xml, "memcheck", "latin1.xml");
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].file, "/src/caf\\xE9/cs_bugs.cu");
  Results::Data d;
  d.findings = fs;
  const std::string json = Results(d).to_json();  // threw type_error.316
  EXPECT_NE(json.find("caf\\\\xE9"), std::string::npos);
}

// A thread index beyond 32 bits is dropped, not wrapped to a wrong thread (issue 15, defect 9).
TEST(SanitizerReportTest, CoordinatesBeyond32BitsAreAbsent) {
  std::string xml = testing::fixture_text("sanitizer/memcheck_oob.xml");
  const std::string from = "<threadIdx>\n        <x>0</x>";
  ASSERT_NE(xml.find(from), std::string::npos);
  xml.replace(xml.find(from), from.size(), "<threadIdx>\n        <x>4294967296</x>");
  const auto fs = parse_sanitizer_report(xml, "memcheck", "big.xml");
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_FALSE(fs[0].thread.has_value());
  EXPECT_TRUE(fs[0].block.has_value());
}

TEST(SanitizerReportTest, MemcheckLeak) {
  const auto fs = fixture("memcheck_leak.xml", "memcheck");
  ASSERT_EQ(fs.size(), 1u);
  const Finding& f = fs[0];
  EXPECT_EQ(f.category, "Leak");
  EXPECT_TRUE(is_leak(f));
  EXPECT_FALSE(is_kernel_error(f));
  EXPECT_EQ(f.kind, "Leaked 1024 bytes");
  EXPECT_EQ(f.size, std::optional<std::uint64_t>(1024));
  EXPECT_EQ(f.address, std::optional<std::uint64_t>(0x7f67e0800000ULL));
  EXPECT_EQ(f.kernel, "");
  EXPECT_EQ(f.severity, "Error");
  ASSERT_EQ(f.host_stack.size(), 9u);
  EXPECT_EQ(f.host_stack[4], "cudaError cudaMalloc<int> (/tmp/cs_bugs+0x96e6)");
  EXPECT_EQ(f.host_stack[5], "main (/tmp/cs_bugs+0x8cd1)");
  // Allocated in main, not inside a kscope session.
  EXPECT_FALSE(allocated_in_session(f));
}

TEST(SanitizerReportTest, RacecheckAnalysisRecord) {
  const auto fs = fixture("racecheck_race.xml", "racecheck");
  ASSERT_EQ(fs.size(), 1u);
  const Finding& f = fs[0];
  EXPECT_EQ(f.category, "Analysis");
  EXPECT_EQ(f.kind, "Race condition");
  EXPECT_EQ(f.kernel, "race");
  EXPECT_EQ(f.file, "/src/probes/cs_bugs.cu");
  EXPECT_EQ(f.line, std::optional<int>(7));
  EXPECT_EQ(f.detail,
            "Write at cs_bugs.cu:7 races with Write at cs_bugs.cu:7, Read at cs_bugs.cu:8");
  EXPECT_EQ(f.count, 128u + 764u);
  EXPECT_FALSE(f.thread.has_value());  // racecheck reports no thread
  EXPECT_TRUE(f.host_stack.empty());
}

TEST(SanitizerReportTest, InitcheckRecord) {
  const auto fs = fixture("initcheck_uninit.xml", "initcheck");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, "Uninitialized __global__ memory read of size 4 bytes");
  EXPECT_EQ(fs[0].kernel, "uninit_read");
  EXPECT_EQ(fs[0].line, std::optional<int>(10));
  EXPECT_EQ(*fs[0].thread, (Dim3{3, 0, 0}));
  EXPECT_EQ(fs[0].detail, "");
}

TEST(SanitizerReportTest, SynccheckRecordOfATemplatedKernel) {
  const auto fs = fixture("synccheck_barrier.xml", "synccheck");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, "Barrier error detected. Divergent thread(s) in block");
  EXPECT_EQ(fs[0].kernel, "ns::divergent_sync<float>");
  EXPECT_EQ(fs[0].function, "ns::divergent_sync<float>");
  EXPECT_EQ(*fs[0].block, (Dim3{1, 0, 0}));
}

TEST(SanitizerReportTest, CleanRunHasNoFindings) {
  EXPECT_TRUE(fixture("memcheck_clean.xml", "memcheck").empty());
}

TEST(SanitizerReportTest, KernelFromLaunchStackWithoutDeviceStub) {
  EXPECT_EQ(kernel_from_launch_stack({"cuLaunchKernel", "triton_kernel_launcher"}), "");
  EXPECT_EQ(kernel_from_launch_stack({"cuLaunchKernel", "__device_stub__Z4vaddPfS_S_i"}), "vadd");
}

TEST(SanitizerReportTest, UnknownRecordsAreKeptAsTheirTextSays) {
  const auto fs = parse_sanitizer_report(
      "<ComputeSanitizerOutput><record><kind>Odd</kind><what><text>Something "
      "else</text></what></record><record/></ComputeSanitizerOutput>",
      "memcheck", "t");
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].kind, "Something else");
  EXPECT_EQ(fs[0].category, "Odd");
  EXPECT_EQ(fs[0].kernel, "");
  EXPECT_TRUE(is_kernel_error(fs[0]));
  EXPECT_EQ(fs[1].kind, "");
  EXPECT_EQ(fs[1].severity, "Error");
}

// After a memory error the CUDA context is unusable and every later CUDA call fails;
// compute-sanitizer reports each one. They are no errors of a kernel.
TEST(SanitizerReportTest, FailedApiCallsAreTheirOwnCategory) {
  const auto fs = fixture("memcheck_oob_api_errors.xml", "memcheck");
  ASSERT_EQ(fs.size(), 4u);
  EXPECT_TRUE(is_kernel_error(fs[0]));
  EXPECT_EQ(fs[0].category, "Precise");
  const std::vector<std::string> calls = {"cudaDeviceSynchronize", "cudaFree", "cudaGetLastError"};
  for (std::size_t i = 1; i < fs.size(); ++i) {
    const Finding& f = fs[i];
    EXPECT_TRUE(is_api_error(f));
    EXPECT_FALSE(is_kernel_error(f));
    EXPECT_FALSE(is_leak(f));
    EXPECT_EQ(f.category, "ApiError");
    EXPECT_EQ(f.kind,
              "Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch "
              "failure\" on CUDA API call to " +
                  calls[i - 1] + ".");
    EXPECT_EQ(f.function, calls[i - 1]);  // the call that failed
    EXPECT_EQ(f.detail, "cudaErrorLaunchFailure");
    EXPECT_EQ(f.kernel, "");
    EXPECT_FALSE(f.thread.has_value());
    EXPECT_EQ(f.host_stack.size(), 2u);
  }
}

TEST(SanitizerReportTest, FailedApiCallByKindOrByText) {
  const auto fs = parse_sanitizer_report(
      "<ComputeSanitizerOutput>"
      // A kind that names the API is enough.
      "<record><kind>HostApiError</kind><what><text>cudaMalloc failed</text></what></record>"
      // The text alone: a driver API call, the error taken from the text.
      "<record><kind>Precise</kind><what><text>Program hit CUDA_ERROR_INVALID_VALUE (error 1) due "
      "to \"invalid argument\" on CUDA API call to cuPointerGetAttribute.</text></what>"
      "<hostStack><saveLocation>kernel launch time</saveLocation><frame><func>"
      "__device_stub__Z4vaddPfS_S_i</func></frame></hostStack></record>"
      // The wording of older versions.
      "<record><what><text>Program hit invalid device context (error 201) on CUDA API call to "
      "cuCtxGetDevice.</text></what></record>"
      // Not an API error: "Program hit" without a call.
      "<record><kind>Precise</kind><what><text>Program hit a breakpoint</text></what></record>"
      "</ComputeSanitizerOutput>",
      "memcheck", "t");
  ASSERT_EQ(fs.size(), 4u);
  EXPECT_TRUE(is_api_error(fs[0]));
  EXPECT_EQ(fs[0].function, "");
  EXPECT_EQ(fs[0].detail, "");
  EXPECT_TRUE(is_api_error(fs[1]));
  EXPECT_EQ(fs[1].function, "cuPointerGetAttribute");
  EXPECT_EQ(fs[1].detail, "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(fs[1].kernel, "");  // not the kernel of a launch stack
  EXPECT_TRUE(is_api_error(fs[2]));
  EXPECT_EQ(fs[2].function, "cuCtxGetDevice");
  EXPECT_EQ(fs[2].detail, "invalid device context");
  EXPECT_TRUE(is_kernel_error(fs[3]));
}

TEST(SanitizerReportTest, OddNumbersAreLeftOutNotFatal) {
  const auto fs = parse_sanitizer_report(
      "<ComputeSanitizerOutput><record><kind>Precise</kind><who><threadIdx><x>a</x><y>0</y>"
      "<z>0</z></threadIdx></who><what><text>t</text><address>0xZZ</address><size>-4</size>"
      "</what><where><func>k</func><line>0</line></where></record></ComputeSanitizerOutput>",
      "memcheck", "t");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_FALSE(fs[0].thread.has_value());
  EXPECT_FALSE(fs[0].address.has_value());
  EXPECT_FALSE(fs[0].size.has_value());
  EXPECT_FALSE(fs[0].line.has_value());  // 0: no line information
  EXPECT_EQ(fs[0].kernel, "k");
}

TEST(SanitizerReportTest, TruncatedReportIsAClearError) {
  const auto msg =
      testing::error_text<ToolError>([] { (void)fixture("memcheck_truncated.xml", "memcheck"); });
  EXPECT_TRUE(testing::contains(msg, "cannot read compute-sanitizer's report '")) << msg;
  EXPECT_TRUE(testing::contains(msg, "memcheck_truncated.xml")) << msg;
  EXPECT_TRUE(testing::contains(msg, "truncated")) << msg;
}

TEST(SanitizerReportTest, OtherXmlIsNotAReport) {
  const auto msg = testing::error_text<ToolError>(
      [] { (void)parse_sanitizer_report("<html/>", "memcheck", "x.xml"); });
  EXPECT_TRUE(testing::contains(msg, "x.xml: it is not a compute-sanitizer XML report")) << msg;
  EXPECT_TRUE(testing::contains(testing::error_text<ToolError>([] {
                                  (void)read_sanitizer_report("/nonexistent/r.xml", "memcheck");
                                }),
                                "cannot open compute-sanitizer's report '/nonexistent/r.xml'"));
}

}  // namespace
}  // namespace kscope::sanitizer
