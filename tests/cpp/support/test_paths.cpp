#include <filesystem>

#include "support/gpu_test.hpp"

namespace kscope::testing {

std::string fixture(const std::string& relative) {
  return std::string(KSCOPE_FIXTURES_DIR) + "/" + relative;
}

std::string scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::path(KSCOPE_BINARY_DIR) / "test-output" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string() + "/";
}

}  // namespace kscope::testing
