// kscope::profile's errors that come before any GPU work, and the no-GPU error itself. These run
// in CI (no GPU): the device check must come after option/config validation and must say
// "no CUDA device".
#include <gtest/gtest.h>

#include <fstream>

#include "api/output_prefix.hpp"
#include "cuda/device.hpp"
#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

template <class E>
std::string error_of(std::vector<Config> cs, const Options& o, std::string_view name = "t") {
  try {
    (void)profile(name, std::move(cs), [](const Config&) {}, o);
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "(no error)";
}

Options silent() {
  Options o;
  o.verbosity = Verbosity::kSilent;
  return o;
}

TEST(ProfileErrorsTest, AnOutputPrefixThatCannotBeCreatedNamesTheOption) {
  const std::string blocker = testing::scratch_dir("output_prefix_blocker") + "file";
  std::ofstream(blocker) << "";
  const std::string prefix = blocker + "/sub/pre_";  // below a regular file
  try {
    (void)resolve_output_prefix(prefix);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()), "Invalid output_prefix '" + prefix +
                                         "': cannot create its directory '" + blocker +
                                         "/sub' (Not a directory). Choose a prefix in a "
                                         "directory kscope can write to.");
  }
}

TEST(ProfileErrorsTest, InvalidOptionFailsBeforeTheDeviceCheck) {
  Options o = silent();
  o.cache_control = "warm";
  EXPECT_EQ(error_of<InvalidArgument>(configs({1}), o), "Invalid cache_control 'warm'. Expected 'all', 'region' or 'none'.");
}

TEST(ProfileErrorsTest, EmptyConfigs) {
  EXPECT_EQ(error_of<ConfigError>({}, silent()), "configs cannot be empty");
}

TEST(ProfileErrorsTest, ConfigsOfDifferentLengths) {
  std::vector<Config> cs{Config({1}), Config({1, 2}), Config({3})};
  EXPECT_EQ(error_of<ConfigError>(cs, silent()),
            "All configs must have the same number of arguments. Found lengths: [1, 2, 1]");
}

TEST(ProfileErrorsTest, SessionNameMustBeUsableInFileNames) {
  EXPECT_NE(error_of<InvalidArgument>(configs({1}), silent(), "a/b").find("Invalid session name 'a/b'"),
            std::string::npos);
}

TEST(ProfileErrorsTest, NoGpuGivesOneClearError) {
  std::string reason;
  if (cuda::device_available(&reason)) GTEST_SKIP() << "a GPU is present";
  const std::string msg = error_of<NoDeviceError>(configs({1}), silent());
  EXPECT_EQ(msg.rfind("no CUDA device: ", 0), 0u) << msg;
}

}  // namespace
}  // namespace kscope
