#include "collect/ncu/ncu_locator.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "kscope/errors.hpp"
#include "ncu_test_support.hpp"

namespace kscope::ncu {
namespace {

// An executable "ncu" at dir/ncu.
std::string make_ncu(const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/ncu";
  testing::write_text(path, "#!/bin/sh\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

NcuSearch empty_search(const std::string& root) {
  NcuSearch s;
  s.toolkit_dirs = {root + "/cuda/bin"};
  s.standalone_root = root + "/nsight-compute";
  return s;
}

TEST(NcuLocatorTest, OverrideWins) {
  const std::string root = testing::scratch_dir("ncu_locator_override");
  auto s = empty_search(root);
  s.override_path = make_ncu(root + "/mine");
  s.path_value = root + "/cuda/bin";
  make_ncu(root + "/cuda/bin");
  EXPECT_EQ(locate_ncu(s), root + "/mine/ncu");
}

TEST(NcuLocatorTest, OverrideThatIsNotExecutableIsAnErrorNamingIt) {
  auto s = empty_search(testing::scratch_dir("ncu_locator_bad"));
  s.override_path = "/nonexistent/ncu";
  try {
    (void)locate_ncu(s);
    FAIL();
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("KSCOPE_NCU='/nonexistent/ncu'"), std::string::npos);
  }
}

TEST(NcuLocatorTest, PathThenToolkitThenNewestStandalone) {
  const std::string root = testing::scratch_dir("ncu_locator_order");
  auto s = empty_search(root);
  make_ncu(root + "/nsight-compute/2024.3.2");
  make_ncu(root + "/nsight-compute/2025.3.1");
  make_ncu(root + "/nsight-compute/2023.1.0");
  EXPECT_EQ(locate_ncu(s), root + "/nsight-compute/2025.3.1/ncu");
  make_ncu(root + "/cuda/bin");
  EXPECT_EQ(locate_ncu(s), root + "/cuda/bin/ncu");
  s.path_value = "/nonexistent:" + root + "/onpath";
  make_ncu(root + "/onpath");
  EXPECT_EQ(locate_ncu(s), root + "/onpath/ncu");
}

TEST(NcuLocatorTest, MissingNcuSaysHowToInstallAndNamesCupti) {
  try {
    (void)locate_ncu(empty_search(testing::scratch_dir("ncu_locator_none")));
    FAIL();
  } catch (const NcuNotAvailableError& e) {  // Python: NCUNotAvailableError, a ToolError
    const std::string what = e.what();
    EXPECT_NE(what.find("Nsight Compute CLI (ncu) is not available"), std::string::npos);
    EXPECT_NE(what.find("KSCOPE_NCU"), std::string::npos);
    EXPECT_NE(what.find("PATH"), std::string::npos);
    EXPECT_NE(what.find("https://developer.nvidia.com/nsight-compute"), std::string::npos);
    EXPECT_NE(what.find("'cupti'"), std::string::npos);
  }
}

}  // namespace
}  // namespace kscope::ncu
