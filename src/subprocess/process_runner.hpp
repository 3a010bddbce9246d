#pragma once
// Starts a program from an argument vector (never through a shell, so no quoting or injection
// issues), with environment additions, and waits for it with an optional timeout. The
// re-executing tools (ncu, compute-sanitizer) and their version queries all go through here, so
// that pipes, signals and the stderr tail are handled in one place. A child is killed when the
// thread that started it ends (its parent killed: no orphaned ncu keeps the GPU), and stopped
// when the interrupt check (core/interrupt_check) throws while it runs.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kscope::subprocess {

/// What to start and how.
struct ProcessSpec {
  /// argv[0] is the program: a path, or a bare name looked up in PATH.
  std::vector<std::string> argv;
  /// Variables added to this process's environment for the child (replacing same-named ones).
  std::vector<std::pair<std::string, std::string>> environment;
  /// Keep stdout in ProcessResult::stdout_text; otherwise the child writes to our stdout.
  bool capture_stdout = false;
  /// Also copy the child's stderr to our stderr as it arrives (it is always piped for the tail).
  bool echo_stderr = false;
  /// How many trailing stderr lines ProcessResult::stderr_tail keeps.
  std::size_t stderr_tail_lines = 30;
  /// Stop the child (SIGTERM, SIGKILL after a grace period) when it runs longer than this.
  std::optional<std::chrono::milliseconds> timeout;
};

/// How a child ended and what it printed.
struct ProcessResult {
  int exit_code = -1;   ///< exit status when the child exited; -1 when a signal ended it
  int signal = 0;       ///< the signal that ended it, 0 when it exited
  bool timed_out = false;
  std::string stdout_text;               ///< with ProcessSpec::capture_stdout
  std::vector<std::string> stderr_tail;  ///< last lines of stderr, oldest first
  double wall_seconds = 0;

  [[nodiscard]] bool succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
  /// "exit status 3", "signal 11 (Segmentation fault)", "timed out after 10.0 s".
  [[nodiscard]] std::string status_text() const;
  /// The stderr tail, each line indented by two spaces and ended by '\n' ("" when empty).
  [[nodiscard]] std::string stderr_text() const;
};

/// Runs the program and waits for it. Throws kscope::ToolError naming the program when it
/// cannot be started (missing, not executable), and what the interrupt check throws, once the
/// child is stopped (SIGTERM, SIGKILL after 5 s).
[[nodiscard]] ProcessResult run_process(const ProcessSpec& spec);

/// The argument vector as one line for logs: arguments with spaces or quotes are single-quoted.
[[nodiscard]] std::string command_line_text(const std::vector<std::string>& argv);

}  // namespace kscope::subprocess
