#include "subprocess/self_command.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "kscope/errors.hpp"

namespace kscope::subprocess {
namespace {

TEST(SelfCommandTest, IsThisExecutableWithItsArguments) {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto expected_args = split_cmdline(raw);
  char exe[4096] = {};
  ASSERT_GT(::readlink("/proc/self/exe", exe, sizeof exe - 1), 0);

  const auto argv = self_command(Options{}, "ncu");
  ASSERT_EQ(argv.size(), expected_args.size());
  EXPECT_EQ(argv[0], exe);  // absolute, whatever argv[0] was
  for (std::size_t i = 1; i < argv.size(); ++i) EXPECT_EQ(argv[i], expected_args[i]);
}

TEST(SelfCommandTest, OverrideArgvIsUsedAsGiven) {
  Options o;
  o.reexec_argv = {"/usr/bin/python3", "bench.py", "--size", "big"};
  EXPECT_EQ(self_command(o, "ncu"), o.reexec_argv);
}

TEST(SelfCommandTest, ProgramThatCannotBeRerunNamesTheCuptiTool) {
  Options o;
  o.reexec_unavailable = "running in a Jupyter notebook";
  try {
    (void)self_command(o, "ncu");
    FAIL() << "expected NotSupportedError";
  } catch (const NotSupportedError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tool 'ncu'"), std::string::npos);
    EXPECT_NE(what.find("running in a Jupyter notebook"), std::string::npos);
    EXPECT_NE(what.find("'cupti'"), std::string::npos);
  }
}

TEST(SelfCommandTest, SplitsNulSeparatedArguments) {
  EXPECT_EQ(split_cmdline(std::string("a\0b c\0\0d\0", 9)),
            (std::vector<std::string>{"a", "b c", "", "d"}));
  EXPECT_TRUE(split_cmdline("").empty());
}

}  // namespace
}  // namespace kscope::subprocess
