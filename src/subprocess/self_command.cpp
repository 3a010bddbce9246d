#include "subprocess/self_command.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "kscope/errors.hpp"

namespace kscope::subprocess {
namespace {

std::string executable_path() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) {
    throw ToolError(std::string("cannot read /proc/self/exe to re-run this program: ") +
                    std::strerror(errno) + ". Set Options::reexec_argv to the command to run.");
  }
  std::string path(buf.data(), static_cast<std::size_t>(n));
  // A binary replaced on disk while running (rebuilt) is reported as "<path> (deleted)"; the new
  // file at <path> is what a user re-running the program would get too.
  const std::string deleted = " (deleted)";
  if (path.size() > deleted.size() &&
      path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0) {
    path.erase(path.size() - deleted.size());
  }
  return path;
}

}  // namespace

std::vector<std::string> split_cmdline(const std::string& raw) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < raw.size()) {
    std::size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    out.push_back(raw.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string reexec_unavailable_message(const std::string& tool, const std::string& reason) {
  return "tool '" + tool + "' re-runs this program under an external profiler, but this program "
         "cannot be re-run (" + reason + "). Use tool 'cupti', which measures in-process and "
         "works in notebooks, or run the code as a script (python script.py / a compiled "
         "program).";
}

std::vector<std::string> self_command(const Options& options, const std::string& tool) {
  if (!options.reexec_unavailable.empty()) {
    throw NotSupportedError(reexec_unavailable_message(tool, options.reexec_unavailable));
  }
  if (!options.reexec_argv.empty()) return options.reexec_argv;
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  if (!in) {
    throw ToolError(std::string("cannot read /proc/self/cmdline to re-run this program: ") +
                    std::strerror(errno) + ". Set Options::reexec_argv to the command to run.");
  }
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> argv = split_cmdline(raw);
  if (argv.empty()) argv.emplace_back();
  argv.front() = executable_path();
  return argv;
}

}  // namespace kscope::subprocess
