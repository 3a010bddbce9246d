#include "subprocess/reexec_runner.hpp"

#include <cstdio>

#include "kscope/errors.hpp"
#include "subprocess/error_relay.hpp"

namespace kscope::subprocess {

ReexecOutcome run_reexec(const ReexecRequest& request) {
  (void)std::remove(request.marker.report_path.c_str());
  ProcessSpec spec;
  spec.argv = request.argv;
  spec.environment = request.marker.environment();
  for (const auto& kv : request.environment) spec.environment.push_back(kv);
  spec.echo_stderr = request.echo_stderr;
  spec.timeout = request.timeout;
  ReexecOutcome outcome;
  outcome.process = run_process(spec);
  outcome.report = read_child_report(request.marker.report_path);
  return outcome;
}

void check_child_outcome(const ReexecOutcome& outcome, const ChildMarker& marker,
                         const std::string& tool) {
  const auto& p = outcome.process;
  const std::string session = "session '" + marker.name + "' (call " + std::to_string(marker.id) + ")";
  if (outcome.report && !outcome.report->error.empty()) {
    throw_error_of_kind(outcome.report->error_kind,
                        outcome.report->error + "\n(raised in the program re-run under " + tool +
                            " for " + session + ")");
  }
  if (!p.succeeded()) {
    throw ToolError(tool + " ended with " + p.status_text() + " while re-running the program for " +
                    session + "." +
                    (p.stderr_tail.empty() ? std::string(" It printed nothing on stderr.")
                                           : "\nLast lines of its stderr:\n" + p.stderr_text()));
  }
  if (!outcome.report) {
    throw ToolError(
        "the program re-run under " + tool + " never ran " + session +
        ": when re-run, a program must call kscope::profile with the same session names in the "
        "same order (the n-th call of a name is call n-1), and reach that call. Check that it "
        "takes the same path with the same arguments (Options::reexec_argv) and does not depend "
        "on the results of earlier sessions, which are empty in the re-run." +
        (p.stderr_tail.empty() ? std::string() : "\nLast lines of its stderr:\n" + p.stderr_text()));
  }
}

}  // namespace kscope::subprocess
