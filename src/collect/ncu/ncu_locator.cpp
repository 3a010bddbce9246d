#include "collect/ncu/ncu_locator.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "collect/ncu/ncu_version.hpp"
#include "kscope/errors.hpp"
#include "subprocess/executable_lookup.hpp"

namespace kscope::ncu {
namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// <root>/<version>/ncu for every installed version, newest first.
std::vector<std::string> standalone_candidates(const std::string& root) {
  std::vector<std::pair<NcuVersion, std::string>> found;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string dir = it->path().filename().string();
    found.emplace_back(parse_ncu_version("Version " + dir).value_or(NcuVersion{}),
                       it->path().string() + "/ncu");
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    if (a.first == b.first) return a.second > b.second;
    return b.first < a.first;
  });
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace

NcuSearch NcuSearch::from_environment() {
  NcuSearch s;
  s.override_path = env_or_empty("KSCOPE_NCU");
  s.path_value = env_or_empty("PATH");
  return s;
}

std::string locate_ncu(const NcuSearch& search) {
  if (!search.override_path.empty()) {
    if (subprocess::is_executable_file(search.override_path)) return search.override_path;
    throw ToolError("KSCOPE_NCU='" + search.override_path +
                    "' is not an executable file. Point it at the ncu binary (e.g. "
                    "/usr/local/cuda/bin/ncu) or unset it to search PATH.");
  }
  std::string found = subprocess::find_in_path("ncu", search.path_value);
  if (!found.empty()) return found;
  std::vector<std::string> candidates;
  for (const auto& dir : search.toolkit_dirs) candidates.push_back(dir + "/ncu");
  for (auto& c : standalone_candidates(search.standalone_root)) candidates.push_back(std::move(c));
  for (const auto& c : candidates) {
    if (subprocess::is_executable_file(c)) return c;
  }
  std::string searched = "PATH";
  for (const auto& dir : search.toolkit_dirs) searched += ", " + dir;
  searched += ", " + search.standalone_root + "/*/";
  throw NcuNotAvailableError(
      "Nsight Compute CLI (ncu) is not available on this system (searched KSCOPE_NCU, " + searched +
      "). Install Nsight Compute (it comes with the CUDA toolkit, or from "
      "https://developer.nvidia.com/nsight-compute), then add its directory to PATH or set "
      "KSCOPE_NCU=/path/to/ncu. Tool 'cupti' measures kernel durations without ncu.");
}

}  // namespace kscope::ncu
