#pragma once
// The compute-sanitizer command lines kscope runs, built as argument vectors (never shell text):
//   compute-sanitizer --tool <check> [--leak-check full] [--racecheck-report analysis]
//                     --error-exitcode 86 --print-limit <N> --xml --save <xml>
//                     --log-file <log> <program...>

#include <string>
#include <vector>

namespace kscope::sanitizer {

/// compute-sanitizer's exit status when it found something (--error-exitcode): distinct from the
/// 0/1 a re-executed kscope program ends with.
inline constexpr int kFoundErrorsExitCode = 86;

/// Files of one compute-sanitizer run: <prefix>sanitizer-<check>-<name>-<id><tag>.{xml,log,
/// child.json}. `tag` is "" for the run over the whole sweep and names the narrower runs that
/// locate a finding (".config2", ".config2.stop3").
struct SanitizerFiles {
  std::string xml;           ///< the XML report (--xml --save)
  std::string log;           ///< compute-sanitizer's text output (--log-file)
  std::string child_report;  ///< what the re-executed program reports (subprocess::ChildReport)
};
[[nodiscard]] SanitizerFiles sanitizer_files(const std::string& prefix, const std::string& check,
                                             const std::string& name, int id,
                                             const std::string& tag = "");

/// What one run of compute-sanitizer checks.
struct SanitizerCommand {
  std::string check = "memcheck";  ///< --tool
  bool leak_check = false;         ///< --leak-check full (memcheck only)
  int print_limit = 1000;          ///< --print-limit (0: none)
};

/// The full argument vector: `sanitizer` (its path), the options, then `program` (the program to
/// re-run and its arguments).
[[nodiscard]] std::vector<std::string> sanitizer_argv(const std::string& sanitizer,
                                                      const SanitizerCommand& command,
                                                      const SanitizerFiles& files,
                                                      const std::vector<std::string>& program);

/// compute-sanitizer expands %p, %q{VAR} and %% in --save and --log-file names; a literal '%' in
/// kscope's output prefix is written as "%%".
[[nodiscard]] std::string escape_file_name(const std::string& path);

}  // namespace kscope::sanitizer
