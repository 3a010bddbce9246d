#include "collect/sanitizer/sanitizer_command.hpp"

namespace kscope::sanitizer {

SanitizerFiles sanitizer_files(const std::string& prefix, const std::string& check,
                               const std::string& name, int id, const std::string& tag) {
  const std::string stem =
      prefix + "sanitizer-" + check + "-" + name + "-" + std::to_string(id) + tag;
  return SanitizerFiles{stem + ".xml", stem + ".log", stem + ".child.json"};
}

std::string escape_file_name(const std::string& path) {
  std::string out;
  for (char c : path) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

std::vector<std::string> sanitizer_argv(const std::string& sanitizer,
                                        const SanitizerCommand& command,
                                        const SanitizerFiles& files,
                                        const std::vector<std::string>& program) {
  std::vector<std::string> argv = {sanitizer, "--tool", command.check};
  if (command.check == "memcheck") {
    argv.insert(argv.end(), {"--leak-check", command.leak_check ? "full" : "no"});
  }
  if (command.check == "racecheck") {
    // Spelled out: one analysis record per race (not one per hazardous access pair).
    argv.insert(argv.end(), {"--racecheck-report", "analysis"});
  }
  // Without --error-exitcode compute-sanitizer returns the program's status even when it found
  // errors; with it, "found something" cannot pass for success.
  argv.insert(argv.end(), {"--error-exitcode", std::to_string(kFoundErrorsExitCode),
                           "--print-limit", std::to_string(command.print_limit), "--xml", "--save",
                           escape_file_name(files.xml), "--log-file", escape_file_name(files.log)});
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

}  // namespace kscope::sanitizer
