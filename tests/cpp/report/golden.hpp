#pragma once
// Golden files under tests/fixtures/golden/: compare output with them, or rewrite them with
// KSCOPE_UPDATE_GOLDEN=1 after an intended format change (and review the diff).

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "support/gpu_test.hpp"

namespace kscope::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = fixture("golden/" + name);
  if (std::getenv("KSCOPE_UPDATE_GOLDEN")) {
    std::ofstream(path) << actual;
    return;
  }
  EXPECT_EQ(actual, read_file(path)) << "golden file " << path
                                     << " differs; rerun with KSCOPE_UPDATE_GOLDEN=1 if intended";
}

}  // namespace kscope::testing
