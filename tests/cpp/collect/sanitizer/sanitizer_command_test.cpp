// compute-sanitizer's command lines (an argument vector for every option, never shell text), the
// file names, finding compute-sanitizer and reading its version.
#include "collect/sanitizer/sanitizer_command.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "collect/ncu/ncu_test_support.hpp"
#include "collect/sanitizer/sanitizer_locator.hpp"
#include "kscope/errors.hpp"
#include "support/error_text.hpp"

namespace kscope::sanitizer {
namespace {

using Argv = std::vector<std::string>;

const SanitizerFiles kFiles = sanitizer_files("/out/", "memcheck", "vadd", 3);
const Argv kProgram = {"/usr/bin/python3", "bench.py", "--size", "1 << 20; rm -rf /"};

Argv tail(const Argv& argv, std::size_t skip) { return Argv(argv.begin() + skip, argv.end()); }

TEST(SanitizerCommandTest, FileNamesNameCheckSessionAndPart) {
  EXPECT_EQ(kFiles.xml, "/out/sanitizer-memcheck-vadd-3.xml");
  EXPECT_EQ(kFiles.log, "/out/sanitizer-memcheck-vadd-3.log");
  EXPECT_EQ(kFiles.child_report, "/out/sanitizer-memcheck-vadd-3.child.json");
  EXPECT_EQ(sanitizer_files("p/", "racecheck", "s", 0, ".config2.stop3").xml,
            "p/sanitizer-racecheck-s-0.config2.stop3.xml");
}

TEST(SanitizerCommandTest, MemcheckDefault) {
  const Argv argv =
      sanitizer_argv("/cuda/bin/compute-sanitizer", SanitizerCommand{}, kFiles, kProgram);
  const Argv expected = {"/cuda/bin/compute-sanitizer",
                         "--tool",
                         "memcheck",
                         "--leak-check",
                         "no",
                         "--error-exitcode",
                         "86",
                         "--print-limit",
                         "1000",
                         "--xml",
                         "--save",
                         kFiles.xml,
                         "--log-file",
                         kFiles.log};
  ASSERT_EQ(argv.size(), expected.size() + kProgram.size());
  EXPECT_EQ(Argv(argv.begin(), argv.begin() + static_cast<long>(expected.size())), expected);
  // The program and its arguments follow verbatim, one element each: no shell, no quoting.
  EXPECT_EQ(tail(argv, expected.size()), kProgram);
}

TEST(SanitizerCommandTest, MemcheckWithLeakCheck) {
  SanitizerCommand c;
  c.leak_check = true;
  const Argv argv = sanitizer_argv("cs", c, kFiles, {"./app"});
  EXPECT_EQ(Argv(argv.begin() + 1, argv.begin() + 5),
            (Argv{"--tool", "memcheck", "--leak-check", "full"}));
}

TEST(SanitizerCommandTest, EachCheckGetsItsTool) {
  for (const std::string check : {"racecheck", "initcheck", "synccheck"}) {
    SanitizerCommand c;
    c.check = check;
    c.leak_check = true;  // memcheck only: ignored for the others
    const Argv argv = sanitizer_argv("cs", c, kFiles, {"./app"});
    EXPECT_EQ(argv[1], "--tool");
    EXPECT_EQ(argv[2], check);
    EXPECT_EQ(std::count(argv.begin(), argv.end(), "--leak-check"), 0) << check;
    const bool race_report = std::count(argv.begin(), argv.end(), "--racecheck-report") == 1;
    EXPECT_EQ(race_report, check == "racecheck") << check;
    EXPECT_EQ(argv.back(), "./app");
  }
  SanitizerCommand r;
  r.check = "racecheck";
  const Argv argv = sanitizer_argv("cs", r, kFiles, {"./app"});
  EXPECT_EQ(Argv(argv.begin() + 3, argv.begin() + 5), (Argv{"--racecheck-report", "analysis"}));
}

TEST(SanitizerCommandTest, PrintLimitZeroMeansNoLimit) {
  SanitizerCommand c;
  c.print_limit = 0;
  const Argv argv = sanitizer_argv("cs", c, kFiles, {"./app"});
  const auto it = std::find(argv.begin(), argv.end(), "--print-limit");
  ASSERT_NE(it, argv.end());
  EXPECT_EQ(*(it + 1), "0");
}

TEST(SanitizerCommandTest, PercentInFileNamesIsEscaped) {
  EXPECT_EQ(escape_file_name("/tmp/100%/x%p.xml"), "/tmp/100%%/x%%p.xml");
  const auto files = sanitizer_files("/tmp/a%b/", "memcheck", "s", 0);
  const Argv argv = sanitizer_argv("cs", SanitizerCommand{}, files, {"./app"});
  EXPECT_NE(std::find(argv.begin(), argv.end(), "/tmp/a%%b/sanitizer-memcheck-s-0.xml"),
            argv.end());
}

class SanitizerLocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test: CTest runs the cases of this binary in parallel.
    dir_ = testing::scratch_dir(std::string("sanitizer_locator_") +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_ + "bin");
    exe_ = dir_ + "bin/compute-sanitizer";
    testing::write_text(exe_, "#!/bin/sh\n");
    std::filesystem::permissions(exe_, std::filesystem::perms::owner_all);
    testing::write_text(dir_ + "not_executable", "x");
  }
  std::string error_of(const SanitizerSearch& s) {
    return testing::error_text<ToolError>([&] { (void)locate_compute_sanitizer(s); });
  }
  std::string dir_, exe_;
};

TEST_F(SanitizerLocatorTest, OverrideWinsAndMustBeExecutable) {
  SanitizerSearch s;
  s.override_path = exe_;
  s.path_value = "/nonexistent";
  EXPECT_EQ(locate_compute_sanitizer(s), exe_);
  s.override_path = dir_ + "not_executable";
  const auto e = error_of(s);
  EXPECT_NE(e.find("KSCOPE_COMPUTE_SANITIZER='" + dir_ + "not_executable' is not an executable"),
            std::string::npos)
      << e;
}

TEST_F(SanitizerLocatorTest, PathThenToolkit) {
  SanitizerSearch s;
  s.path_value = "/nonexistent:" + dir_ + "bin";
  s.toolkit_paths = {};
  EXPECT_EQ(locate_compute_sanitizer(s), exe_);
  s.path_value = "/nonexistent";
  s.toolkit_paths = {"/nonexistent/compute-sanitizer", exe_};
  EXPECT_EQ(locate_compute_sanitizer(s), exe_);
}

TEST_F(SanitizerLocatorTest, MissingSaysHowToInstallOrPointAtIt) {
  SanitizerSearch s;
  s.path_value = "/nonexistent";
  s.toolkit_paths = {"/nonexistent/cuda/bin/compute-sanitizer"};
  const auto e = error_of(s);
  EXPECT_NE(e.find("compute-sanitizer is not available"), std::string::npos) << e;
  EXPECT_NE(e.find("/nonexistent/cuda/bin/compute-sanitizer"), std::string::npos) << e;
  EXPECT_NE(e.find("CUDA toolkit"), std::string::npos) << e;
  EXPECT_NE(e.find("set KSCOPE_COMPUTE_SANITIZER="), std::string::npos) << e;
  EXPECT_NE(e.find("Tool 'cupti'"), std::string::npos) << e;
}

TEST(SanitizerVersionTest, ParsesTheVersionLine) {
  EXPECT_EQ(parse_sanitizer_version("NVIDIA (R) Compute Sanitizer\nCopyright (c) 2020-2025\n"
                                    "Version 2025.3.1.0 (build 36398880) (public-release)\n"),
            "2025.3.1.0");
  EXPECT_EQ(parse_sanitizer_version("Version 2025.3.1.0"), "2025.3.1.0");
  EXPECT_EQ(parse_sanitizer_version("no version here"), "");
  EXPECT_EQ(query_sanitizer_version(testing::fixture("sanitizer/fake_compute_sanitizer.sh")),
            "2025.3.1.0");
}

}  // namespace
}  // namespace kscope::sanitizer
