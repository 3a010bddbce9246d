// The child-process runner: argument vectors reach the program untouched (no shell), the
// environment additions, exit status, signals, the stderr tail and the timeout.
#include "subprocess/process_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "kscope/errors.hpp"
#include "kscope/profile.hpp"

namespace kscope::subprocess {
namespace {

ProcessResult sh(const std::string& script, ProcessSpec spec = {}) {
  spec.argv = {"/bin/sh", "-c", script};
  spec.capture_stdout = true;
  return run_process(spec);
}

TEST(ProcessRunnerTest, CapturesStdoutAndExitStatus) {
  const auto r = sh("echo hello; exit 3");
  EXPECT_EQ(r.stdout_text, "hello\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.status_text(), "exit status 3");
}

TEST(ProcessRunnerTest, ArgumentsAreNotInterpretedByAShell) {
  ProcessSpec spec;
  spec.argv = {"/bin/echo", "$HOME; echo injected", "a  b", "'q'"};
  spec.capture_stdout = true;
  const auto r = run_process(spec);
  EXPECT_TRUE(r.succeeded());
  EXPECT_EQ(r.stdout_text, "$HOME; echo injected a  b 'q'\n");
}

TEST(ProcessRunnerTest, BareNameIsLookedUpInPath) {
  ProcessSpec spec;
  spec.argv = {"echo", "found"};
  spec.capture_stdout = true;
  EXPECT_EQ(run_process(spec).stdout_text, "found\n");
}

TEST(ProcessRunnerTest, EnvironmentAdditionsReachTheChildAndReplaceValues) {
  ::setenv("KSCOPE_TEST_REPLACED", "old", 1);
  ProcessSpec spec;
  spec.environment = {{"KSCOPE_TEST_ADDED", "added value"}, {"KSCOPE_TEST_REPLACED", "new"}};
  const auto r = sh("echo \"$KSCOPE_TEST_ADDED|$KSCOPE_TEST_REPLACED|${HOME:+home}\"", spec);
  EXPECT_EQ(r.stdout_text, "added value|new|home\n");
  ::unsetenv("KSCOPE_TEST_REPLACED");
}

TEST(ProcessRunnerTest, KeepsTheLastLinesOfStderr) {
  ProcessSpec spec;
  spec.stderr_tail_lines = 3;
  const auto r = sh("i=0; while [ $i -lt 50 ]; do echo line$i >&2; i=$((i+1)); done; exit 1", spec);
  EXPECT_EQ(r.stderr_tail, (std::vector<std::string>{"line47", "line48", "line49"}));
  EXPECT_EQ(r.stderr_text(), "  line47\n  line48\n  line49\n");
}

TEST(ProcessRunnerTest, ReportsTheSignalThatEndedTheChild) {
  const auto r = sh("kill -SEGV $$");
  EXPECT_EQ(r.signal, 11);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_NE(r.status_text().find("signal 11"), std::string::npos);
}

TEST(ProcessRunnerTest, TimeoutStopsTheChild) {
  ProcessSpec spec;
  spec.argv = {"/bin/sleep", "30"};
  spec.timeout = std::chrono::milliseconds(200);
  const auto r = run_process(spec);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.succeeded());
  EXPECT_LT(r.wall_seconds, 10.0);
  EXPECT_NE(r.status_text().find("timed out"), std::string::npos);
}

// A Ctrl-C of a language binding's caller while a child runs: the check's exception leaves
// run_process within its 100 ms poll, once the child is stopped.
TEST(ProcessRunnerTest, AThrowingInterruptCheckStopsTheChildAndPropagates) {
  struct Interrupted {};
  const auto t0 = std::chrono::steady_clock::now();
  set_interrupt_check([t0] {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(200)) throw Interrupted{};
  });
  ProcessSpec spec;
  spec.argv = {"/bin/sleep", "30"};
  EXPECT_THROW((void)run_process(spec), Interrupted);
  set_interrupt_check({});
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  spec.argv = {"/bin/true"};
  EXPECT_TRUE(run_process(spec).succeeded());  // no check any more
}

TEST(ProcessRunnerTest, MissingProgramIsAToolErrorNamingIt) {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/kscope-tool", "--x"};
  try {
    (void)run_process(spec);
    FAIL() << "expected ToolError";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kscope-tool"), std::string::npos);
  }
  EXPECT_THROW((void)run_process(ProcessSpec{}), ToolError);
}

TEST(ProcessRunnerTest, CommandLineTextQuotesWhatAShellWouldSplit) {
  EXPECT_EQ(command_line_text({"ncu", "--metrics", "a,b", "my prog", "it's", ""}),
            "ncu --metrics a,b 'my prog' 'it'\\''s' ''");
}

}  // namespace
}  // namespace kscope::subprocess
