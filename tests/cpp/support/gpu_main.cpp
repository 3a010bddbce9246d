// main() of every GPU test binary: without a usable device it prints why and exits 77, which
// CTest reports as "skipped"; otherwise it runs the GoogleTest cases.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "support/gpu_test.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing = listing || std::strstr(argv[i], "gtest_list_tests");
  std::string reason;
  if (!listing && !kscope::testing::gpu_available(&reason)) {
    std::printf("SKIPPED: %s needs a GPU: %s\n", argv[0], reason.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
