#include "core/profiler_processes.hpp"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>

namespace kscope {

std::string running_profilers(const std::string& proc) {
  // /proc/PID/comm holds at most 15 characters of the name.
  static constexpr std::array<std::string_view, 4> kNames = {"ncu", "nsys", "compute-sanitiz",
                                                             "nv-hostengine"};
  std::map<long, std::string> found;  // by pid, so that the text is in a stable order
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(proc, ec)) {
    const std::string pid = entry.path().filename().string();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::stol(pid) == static_cast<long>(::getpid())) continue;
    std::ifstream in(entry.path() / "comm");
    std::string name;
    if (!std::getline(in, name)) continue;
    for (const auto known : kNames) {
      if (name == known) found[std::stol(pid)] = name == "compute-sanitiz" ? "compute-sanitizer" : name;
    }
  }
  std::string out;
  for (const auto& [pid, name] : found) {
    out += (out.empty() ? "" : ", ") + name + " (pid " + std::to_string(pid) + ")";
  }
  return out;
}

}  // namespace kscope
