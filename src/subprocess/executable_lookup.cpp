#include "subprocess/executable_lookup.hpp"

#include <sys/stat.h>
#include <unistd.h>

namespace kscope::subprocess {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::string find_in_path(const std::string& name, const std::string& path_value) {
  if (path_value.empty()) return {};  // no PATH at all: not the current directory
  std::size_t start = 0;
  while (start <= path_value.size()) {
    std::size_t end = path_value.find(':', start);
    if (end == std::string::npos) end = path_value.size();
    std::string dir = path_value.substr(start, end - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return {};
}

}  // namespace kscope::subprocess
