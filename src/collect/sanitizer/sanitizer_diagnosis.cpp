#include "collect/sanitizer/sanitizer_diagnosis.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "collect/sanitizer/sanitizer_report.hpp"
#include "kscope/errors.hpp"

namespace kscope::sanitizer {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  if (in) text << in.rdbuf();
  return text.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string stderr_part(const subprocess::ProcessResult& p) {
  return p.stderr_tail.empty() ? std::string(" It printed nothing on stderr.")
                               : "\nLast lines of its stderr:\n" + p.stderr_text();
}

std::string session_text(const SanitizerRunFacts& f) {
  return "session '" + f.marker.name + "' (call " + std::to_string(f.marker.id) + ", " + f.part +
         ")";
}

}  // namespace

bool device_not_supported(const std::string& text) {
  return lower(text).find("device not supported") != std::string::npos;
}

long long error_summary_count(const std::string& text) {
  const std::string key = "ERROR SUMMARY: ";
  const auto at = text.rfind(key);
  if (at == std::string::npos) return -1;
  std::size_t i = at + key.size();
  long long n = 0;
  bool any = false;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n < (1LL << 50)) {
    n = n * 10 + (text[i++] - '0');
    any = true;
  }
  return any ? n : -1;
}

bool reached_print_limit(std::size_t records, int print_limit, const std::string& log_text) {
  // The limit caps the XML's records of every kind (leaks and failed API calls too); fewer
  // records than the limit were not cut. At the limit, the log's ERROR SUMMARY (which counts
  // everything compute-sanitizer found) tells a run cut there from one that found exactly that
  // many; without it the run counts as cut.
  if (print_limit <= 0 || records < static_cast<std::size_t>(print_limit)) return false;
  const long long summary = error_summary_count(log_text);
  return summary < 0 || summary > static_cast<long long>(records);
}

CheckRun interpret_sanitizer_run(const SanitizerRunFacts& f) {
  const auto& p = f.outcome.process;
  const auto& report = f.outcome.report;
  const std::string log_text = read_text(f.files.log);
  std::string tool_output = log_text;
  for (const auto& line : p.stderr_tail) tool_output += "\n" + line;
  if (device_not_supported(tool_output)) {
    throw ToolError(
        "compute-sanitizer cannot check this GPU: it reported 'Device not supported' while "
        "re-running the program for " +
        session_text(f) +
        ". It needs a GPU and driver it "
        "supports, with direct access to the device (it has been seen to fail in gVisor-sandboxed "
        "containers); run the check on such a machine, or use tool 'cupti' to measure without "
        "it. Its log: " +
        f.files.log);
  }
  if (p.timed_out) {
    throw ToolError("compute-sanitizer did not finish (" + p.status_text() +
                    ") and was stopped while checking " + session_text(f) +
                    ". Its log: " + f.files.log);
  }
  const bool found_exit = p.signal == 0 && p.exit_code == kFoundErrorsExitCode;
  const bool clean_exit = p.succeeded();
  if (!std::filesystem::exists(f.files.xml)) {
    // The program's own error explains a missing report best.
    if (report && !report->error.empty())
      subprocess::check_child_outcome(f.outcome, f.marker, "compute-sanitizer");
    throw ToolError("compute-sanitizer ended with " + p.status_text() + " and wrote no report (" +
                    f.files.xml + ") while checking " + session_text(f) +
                    ". Its log: " + f.files.log + stderr_part(p));
  }

  CheckRun run;
  try {
    run.findings = read_sanitizer_report(f.files.xml, f.check);
  } catch (const ToolError& e) {
    throw ToolError(
        std::string(e.what()) + ". compute-sanitizer ended with " + p.status_text() +
        "; a report cut short usually means it or the program was killed. Its log: " + f.files.log);
  }
  run.truncated = reached_print_limit(run.findings.size(), f.print_limit, log_text);
  run.reported = report.has_value();
  if (report) run.trace = report->trace;

  if (run.findings.empty()) {
    // Nothing found: the run must have gone through like any re-executed session.
    if (report && !report->error.empty())
      subprocess::check_child_outcome(f.outcome, f.marker, "compute-sanitizer");
    if (!clean_exit && !found_exit) {
      throw ToolError("the program crashed under compute-sanitizer (" + p.status_text() +
                      ") while checking " + session_text(f) +
                      ", and compute-sanitizer reported "
                      "nothing. Its log: " +
                      f.files.log + stderr_part(p));
    }
    subprocess::check_child_outcome(f.outcome, f.marker, "compute-sanitizer");
    return run;
  }
  // Something was found; a memory error typically ends the program's run (the CUDA context is
  // unusable afterwards), which is then no failure of its own.
  if (report && !report->error.empty()) {
    run.ended_early = report->error;
  } else if (!report) {
    run.ended_early = "the program ended with " +
                      (found_exit ? std::string("an error") : p.status_text()) +
                      " before kscope's session finished";
  } else if (!clean_exit && !found_exit) {
    run.ended_early = "the program ended with " + p.status_text();
  }
  return run;
}

}  // namespace kscope::sanitizer
