#include "collect/sanitizer/sanitizer_locator.hpp"

#include <chrono>
#include <cstdlib>

#include "kscope/errors.hpp"
#include "subprocess/executable_lookup.hpp"
#include "subprocess/process_runner.hpp"

namespace kscope::sanitizer {
namespace {

constexpr const char* kOverrideVariable = "KSCOPE_COMPUTE_SANITIZER";

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

SanitizerSearch SanitizerSearch::from_environment() {
  SanitizerSearch s;
  s.override_path = env_or_empty(kOverrideVariable);
  s.path_value = env_or_empty("PATH");
  return s;
}

std::string locate_compute_sanitizer(const SanitizerSearch& search) {
  if (!search.override_path.empty()) {
    if (subprocess::is_executable_file(search.override_path)) return search.override_path;
    throw ToolError(std::string(kOverrideVariable) + "='" + search.override_path +
                    "' is not an executable file. Point it at the compute-sanitizer binary (e.g. "
                    "/usr/local/cuda/bin/compute-sanitizer) or unset it to search PATH.");
  }
  std::string found = subprocess::find_in_path("compute-sanitizer", search.path_value);
  if (!found.empty()) return found;
  std::string searched = "PATH";
  for (const auto& p : search.toolkit_paths) {
    if (subprocess::is_executable_file(p)) return p;
    searched += ", " + p;
  }
  throw ToolError(
      "compute-sanitizer is not available on this system (searched " +
      std::string(kOverrideVariable) + ", " + searched +
      "). It comes with the CUDA toolkit (package cuda-sanitizer-<version> or "
      "the full toolkit from https://developer.nvidia.com/cuda-downloads); add its directory to "
      "PATH or set " +
      kOverrideVariable +
      "=/path/to/compute-sanitizer. Tool 'cupti' measures "
      "kernels without it.");
}

std::string parse_sanitizer_version(const std::string& text) {
  const std::string key = "Version ";
  const auto at = text.find(key);
  if (at == std::string::npos) return {};
  const auto begin = at + key.size();
  const auto end = text.find_first_of(" \t\r\n", begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::string query_sanitizer_version(const std::string& sanitizer) {
  subprocess::ProcessSpec spec;
  spec.argv = {sanitizer, "--version"};
  spec.capture_stdout = true;
  spec.timeout = std::chrono::seconds(60);
  const auto result = subprocess::run_process(spec);
  std::string text = result.stdout_text;
  for (const auto& line : result.stderr_tail) text += "\n" + line;
  return parse_sanitizer_version(text);
}

}  // namespace kscope::sanitizer
