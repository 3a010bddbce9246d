// The exact ncu command lines for each option combination, and the version requirements.
#include "collect/ncu/ncu_command.hpp"

#include <gtest/gtest.h>

#include "kscope/errors.hpp"
#include "ncu_test_support.hpp"

namespace kscope::ncu {
namespace {

using Argv = std::vector<std::string>;

Argv argv_for(const std::string& replay, const std::string& cache, const std::string& clock,
              const std::vector<std::string>& metrics = {kTimeMetric}) {
  Options o;
  o.replay_mode = replay;
  o.cache_control = cache;
  o.clock_control = clock;
  o.metrics = metrics;
  return ncu_profile_argv("/usr/local/cuda/bin/ncu", o, ncu_paths("/out/", "vadd", 2),
                          {"/work/bench", "--size", "big one"});
}

Argv expected(const std::string& metrics, const std::string& replay, const std::string& cache,
              const std::string& clock) {
  return {"/usr/local/cuda/bin/ncu", "--nvtx", "--nvtx-include", "regex:kscope@.+",
          "--metrics", metrics, "--replay-mode", replay, "--cache-control", cache,
          "--clock-control", clock, "--target-processes", "all", "-f", "-o",
          "/out/ncu-output-vadd-2.ncu-rep", "--log-file", "/out/ncu-output-vadd-2.log",
          "/work/bench", "--size", "big one"};
}

TEST(NcuCommandTest, ExactArgvForEveryOptionCombination) {
  for (const char* replay : {"kernel", "range"}) {
    for (const char* cache : {"all", "none"}) {
      for (const char* clock : {"base", "none"}) {
        EXPECT_EQ(argv_for(replay, cache, clock),
                  expected("gpu__time_duration.sum", replay, cache, clock))
            << replay << " " << cache << " " << clock;
      }
    }
  }
}

TEST(NcuCommandTest, PercentSignsInFileNamesReachNcuAsLiterals) {
  // ncu would expand %p, %h, %q{...}, %i and %% in -o; --log-file takes the path as it is.
  const auto argv = ncu_profile_argv("ncu", Options{}, ncu_paths("/out/100%_p/", "s%p", 0), {"./app"});
  ASSERT_GE(argv.size(), 19u);
  EXPECT_EQ(argv[15], "-o");
  EXPECT_EQ(argv[16], "/out/100%%_p/ncu-output-s%%p-0.ncu-rep");
  EXPECT_EQ(argv[18], "/out/100%_p/ncu-output-s%p-0.log");
}

TEST(NcuCommandTest, MetricsAreJoinedInOrder) {
  EXPECT_EQ(argv_for("kernel", "all", "none", {"dram__bytes_read.sum", kTimeMetric})[5],
            "dram__bytes_read.sum,gpu__time_duration.sum");
}

TEST(NcuCommandTest, DefaultOptionsLeaveClocksAlone) {
  const auto argv = ncu_profile_argv("ncu", Options{}, ncu_paths("", "s", 0), {"./app"});
  EXPECT_EQ(argv, (Argv{"ncu", "--nvtx", "--nvtx-include", "regex:kscope@.+", "--metrics",
                        "gpu__time_duration.sum", "--replay-mode", "kernel", "--cache-control",
                        "all", "--clock-control", "none", "--target-processes", "all", "-f", "-o",
                        "ncu-output-s-0.ncu-rep", "--log-file", "ncu-output-s-0.log", "./app"}));
}

TEST(NcuCommandTest, PathsAndImport) {
  const auto p = ncu_paths("/tmp/kscope_x/", "vadd", 3);
  EXPECT_EQ(p.report, "/tmp/kscope_x/ncu-output-vadd-3.ncu-rep");
  EXPECT_EQ(p.log, "/tmp/kscope_x/ncu-output-vadd-3.log");
  EXPECT_EQ(p.child_report, "/tmp/kscope_x/ncu-output-vadd-3.child.json");
  EXPECT_EQ(ncu_import_argv("ncu", p.report),
            (Argv{"ncu", "--import", "/tmp/kscope_x/ncu-output-vadd-3.ncu-rep", "--csv", "--page",
                  "raw", "--print-units", "base"}));
}

TEST(NcuCommandTest, EveryOptionExistsInNcu2025Help) {
  const std::string help = testing::fixture_text("ncu/ncu_2025.3.1_help.txt");
  Options o;
  o.replay_mode = "range";
  for (const auto& arg : ncu_profile_argv("ncu", o, ncu_paths("", "s", 0), {})) {
    if (arg.rfind("-", 0) != 0) continue;
    const std::string long_form = arg == "-f" ? "[ --force-overwrite ]" : arg == "-o" ? "[ --export ]" : arg;
    EXPECT_NE(help.find(long_form), std::string::npos) << arg;
  }
  for (const char* value : {"kernel", "range", "all", "none", "base", "raw"}) {
    EXPECT_NE(help.find(value), std::string::npos) << value;
  }
  for (const auto& arg : ncu_import_argv("ncu", "r.ncu-rep")) {
    if (arg.rfind("--", 0) != 0) continue;
    EXPECT_NE(help.find(arg), std::string::npos) << arg;
  }
  // The import asks for base units; ncu's default is auto-scaled ("us", "Mbyte").
  EXPECT_NE(help.find("--print-units arg (=auto)"), std::string::npos);
  EXPECT_NE(help.find("(Show metrics with their base unit)"), std::string::npos);
}

TEST(NcuCommandTest, TooOldNcuIsRefusedNamingTheOptionAndVersion) {
  Options range;
  range.replay_mode = "range";
  EXPECT_NO_THROW(check_ncu_supports(NcuVersion{2025, 3, 1, 0}, range));
  EXPECT_NO_THROW(check_ncu_supports(NcuVersion{2021, 3, 0, 0}, Options{}));
  try {
    check_ncu_supports(NcuVersion{2021, 3, 1, 0}, range);
    FAIL();
  } catch (const NotSupportedError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ncu 2021.3.1.0 is too old for replay_mode 'range'"), std::string::npos);
    EXPECT_NE(what.find("2022.1.0.0"), std::string::npos);
    EXPECT_NE(what.find("KSCOPE_NCU"), std::string::npos);
  }
  EXPECT_THROW(check_ncu_supports(NcuVersion{2020, 3, 0, 0}, Options{}), NotSupportedError);
}

}  // namespace
}  // namespace kscope::ncu
