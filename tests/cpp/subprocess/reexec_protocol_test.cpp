// The re-execution protocol end to end without a GPU: a fake external tool (fake_ncu.sh in exec
// mode, which runs the program like ncu does) re-runs a program whose sessions go through the
// child side of the protocol; the parent side collects and checks what the child reported.
#include <gtest/gtest.h>

#include <fstream>

#include "kscope/errors.hpp"
#include "subprocess/reexec_runner.hpp"
#include "support/gpu_test.hpp"

namespace kscope::subprocess {
namespace {

ReexecRequest request(const std::string& mode, const std::string& tag) {
  ReexecRequest r;
  r.argv = {testing::fixture("ncu/fake_ncu.sh"), KSCOPE_REEXEC_CHILD_PROGRAM, mode};
  r.marker = ChildMarker{"second", 0, testing::scratch_dir(tag) + "child.json"};
  r.environment = {{"FAKE_NCU_MODE", "exec"}};
  r.echo_stderr = false;
  r.timeout = std::chrono::seconds(60);
  return r;
}

bool tail_contains(const ProcessResult& p, const std::string& text) {
  for (const auto& line : p.stderr_tail) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(ReexecProtocolTest, MarkedSessionRunsAndReports) {
  const auto req = request("ok", "reexec_ok");
  const auto out = run_reexec(req);
  ASSERT_TRUE(out.process.succeeded()) << out.process.status_text() << out.process.stderr_text();
  ASSERT_TRUE(out.report.has_value());
  EXPECT_EQ(out.report->error, "");
  ASSERT_EQ(out.report->runs.size(), 4u);  // 2 configs x 2 measured runs
  EXPECT_EQ(out.report->runs[3].run, (RunId{1, 1, false}));
  EXPECT_EQ(out.report->runs[3].entered, (std::vector<std::string>{"a", "b"}));
  // 2 configs x (1 warm-up + 2 runs) x 2 annotations, in order, warm-ups flagged.
  ASSERT_EQ(out.report->trace.size(), 12u);
  EXPECT_TRUE(out.report->trace[0].run.warmup);
  EXPECT_EQ(out.report->trace[2].annotation, "a");
  EXPECT_EQ(out.report->trace[2].run, (RunId{0, 0, false}));
  EXPECT_EQ(out.report->metadata.gpu, "Fake GPU");
  EXPECT_NO_THROW(check_child_outcome(out, req.marker, "ncu"));
}

TEST(ReexecProtocolTest, OtherSessionsReturnEmptyResultsAndTheChildEndsAfterTheMarkedOne) {
  const auto out = run_reexec(request("ok", "reexec_skip"));
  EXPECT_TRUE(tail_contains(out.process, "first returned 0 rows"));
  // The child ended inside the marked session: nothing after it ran.
  EXPECT_FALSE(tail_contains(out.process, "second returned"));
}

TEST(ReexecProtocolTest, ChildErrorIsThrownAgainWithItsClass) {
  const auto req = request("throw", "reexec_throw");
  const auto out = run_reexec(req);
  EXPECT_EQ(out.process.exit_code, 1);
  ASSERT_TRUE(out.report.has_value());
  EXPECT_EQ(out.report->error_kind, "InvalidArgument");
  try {
    check_child_outcome(out, req.marker, "ncu");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad input in benchmark"), std::string::npos);
    EXPECT_NE(what.find("re-run under ncu for session 'second' (call 0)"), std::string::npos);
  }
}

TEST(ReexecProtocolTest, ChildThatNeverReachesTheSessionIsReported) {
  const auto req = request("skip-second", "reexec_never");
  const auto out = run_reexec(req);
  EXPECT_TRUE(out.process.succeeded());
  EXPECT_FALSE(out.report.has_value());
  try {
    check_child_outcome(out, req.marker, "ncu");
    FAIL() << "expected ToolError";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("never ran session 'second' (call 0)"), std::string::npos);
  }
}

TEST(ReexecProtocolTest, ReportOfAnEarlierRunIsNotTakenForThisRun) {
  auto req = request("skip-second", "reexec_stale");
  std::ofstream(req.marker.report_path) << "stale";
  EXPECT_FALSE(run_reexec(req).report.has_value());
}

TEST(ReexecProtocolTest, FailingToolIsReportedWithItsStatusAndStderr) {
  auto req = request("ok", "reexec_fail");
  req.environment = {{"FAKE_NCU_MODE", "fail"}, {"FAKE_NCU_STDERR", "cannot connect"},
                     {"FAKE_NCU_EXIT", "7"}};
  const auto out = run_reexec(req);
  try {
    check_child_outcome(out, req.marker, "ncu");
    FAIL() << "expected ToolError";
  } catch (const ToolError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("exit status 7"), std::string::npos);
    EXPECT_NE(what.find("cannot connect"), std::string::npos);
  }
}

}  // namespace
}  // namespace kscope::subprocess
