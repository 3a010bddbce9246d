// `kscope compare BASE NEW` run as a user would: the table, --md, --csv, --json, the exit status
// of --threshold, and its usage errors.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "kscope/results.hpp"

namespace kscope {
namespace {

using testing::has;
using testing::kscope_cli;
using testing::slurp;

// One sweep over n = 1, 2 of annotations "steady" and "slowed"; `slow` scales slowed's times.
std::string sweep_file(const std::string& dir, const std::string& name, double slow) {
  Results::Data d;
  d.name = "sweep";
  d.parameters = {"n"};
  d.configs = {Config({Value(1)}, {"n"}), Config({Value(2)}, {"n"})};
  d.metadata.gpu = "NVIDIA H200";
  d.metadata.tool = "cupti";
  d.metadata.kscope_version = "0.1.0";
  for (std::size_t c = 0; c < 2; ++c) {
    for (std::size_t r = 0; r < 12; ++r) {
      for (const char* a : {"steady", "slowed"}) {
        RawRow row;
        row.annotation = a;
        row.metric = "gpu__time_duration.sum";
        row.unit = std::string("ns");
        row.config = c;
        row.run = r;
        const double jitter = static_cast<double>((r * 7) % 5);  // 0..4 ns
        row.value = (1000.0 * static_cast<double>(c + 1) + jitter) *
                    (std::string(a) == "slowed" ? slow : 1.0);
        d.raw.push_back(row);
      }
    }
  }
  const std::string path = dir + name;
  Results(std::move(d)).write_json(path);
  return path;
}

struct Files {
  // One directory per test: CTest runs the tests of this file in parallel.
  std::string dir = testing::scratch_dir(
      std::string("cli_compare_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::string base = sweep_file(dir, "base.json", 1.0);
  std::string slower = sweep_file(dir, "new.json", 1.2);
};

TEST(CompareCommand, PrintsATableWithVerdictsAndExitsZeroWithoutThreshold) {
  const Files f;
  const auto r = kscope_cli("compare " + f.base + " " + f.slower);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "Annotation  Config  Metric")) << r.out;
  EXPECT_TRUE(has(r.out, "+20.0%")) << r.out;
  EXPECT_TRUE(has(r.out, "2 SLOWER, 2 SAME")) << r.out;
}

TEST(CompareCommand, ThresholdExitsThreeOnASlowerRow) {
  const Files f;
  const auto r = kscope_cli("compare " + f.base + " " + f.slower + " --threshold 5%");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "SLOWER (beyond threshold)")) << r.out;
  EXPECT_TRUE(has(r.out, "SLOWER beyond the threshold of 5%")) << r.out;
  EXPECT_EQ(kscope_cli("compare " + f.base + " " + f.slower + " --threshold 0.25").status, 0);
  EXPECT_EQ(kscope_cli("compare " + f.base + " " + f.base + " --threshold 5%").status, 0);
}

// Colour by the command's rule (docs/cli.md): off in a pipe, on with FORCE_COLOR, off with
// NO_COLOR whatever FORCE_COLOR says. The pipe case is every other test here.
TEST(CompareCommand, VerdictsAreColouredWhenColourIsOn) {
  const Files f;
  const std::string args = "compare " + f.base + " " + f.slower;
  const auto plain = kscope_cli(args);
  EXPECT_FALSE(has(plain.out, "\x1b[")) << plain.out;
  const auto coloured = kscope_cli(args, "FORCE_COLOR=1");
  EXPECT_EQ(coloured.status, 0) << coloured.err;
  EXPECT_TRUE(has(coloured.out, "\x1b[31mSLOWER\x1b[0m")) << coloured.out;
  EXPECT_TRUE(has(coloured.out, "\x1b[1mAnnotation  Config")) << coloured.out;
  EXPECT_FALSE(has(coloured.out, "\x1b[31mSAME")) << coloured.out;
  EXPECT_TRUE(has(coloured.out, "2 SLOWER, 2 SAME")) << coloured.out;
  const auto error = kscope_cli(args + " --threshold x", "FORCE_COLOR=1");
  EXPECT_EQ(error.err.rfind("kscope: \x1b[31merror:\x1b[0m Invalid threshold 'x'", 0), 0u) << error.err;
  EXPECT_EQ(kscope_cli(args, "NO_COLOR=1 FORCE_COLOR=1").out, plain.out);
  EXPECT_EQ(kscope_cli(args, "FORCE_COLOR=0").out, plain.out);
}

TEST(CompareCommand, MarkdownCsvAndJson) {
  const Files f;
  const auto r = kscope_cli("compare " + f.base + " " + f.slower + " --md --csv " + f.dir +
                            "c.csv --json " + f.dir + "c.json");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "| Annotation | Config | Metric |")) << r.out;
  EXPECT_TRUE(has(r.out, "**SLOWER**")) << r.out;
  const std::string csv = slurp(f.dir + "c.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Session,Annotation,Metric,Config,Unit,Direction,DirectionDeclared,BaseValue,"
            "NewValue,BaseRuns,NewRuns,BaseRSDPct,NewRSDPct,Ratio,RatioCI95_Lower,"
            "RatioCI95_Upper,Test,PValue,PValueHolm,Verdict,WithinNoise,BeyondThreshold");
  EXPECT_TRUE(has(csv, "\n,slowed,gpu__time_duration.sum,n=1,ns,lower,True,")) << csv;
  EXPECT_TRUE(has(csv, ",U,")) << csv;  // 12 runs a side: the U test
  const std::string json = slurp(f.dir + "c.json");
  EXPECT_TRUE(has(json, "\"kind\": \"kscope.comparison\"")) << json;
  EXPECT_TRUE(has(json, "\"Verdict\": \"SLOWER\"")) << json;
}

// Values the engine rejects are usage errors naming the value and what is accepted.
TEST(CompareCommand, ABadValueIsAUsageErrorNamingIt) {
  const Files f;
  const std::string files = "compare " + f.base + " " + f.slower;
  const auto threshold = kscope_cli(files + " --threshold fast");
  EXPECT_EQ(threshold.status, 2);
  EXPECT_EQ(threshold.err,
            "kscope: error: Invalid threshold 'fast'. Expected a percentage such as 5% or a "
            "fraction such as 0.05.\nRun 'kscope compare --help' for usage.\n");
  const auto alpha = kscope_cli(files + " --alpha 1.5");
  EXPECT_EQ(alpha.status, 2);
  EXPECT_EQ(alpha.err,
            "kscope: error: Invalid alpha 1.5. Expected a significance level between 0 and 1, "
            "e.g. 0.05.\nRun 'kscope compare --help' for usage.\n");
  const auto both = kscope_cli(files + " --higher-is-better t --lower-is-better t");
  EXPECT_EQ(both.status, 2);
  EXPECT_TRUE(has(both.err, "Metric 't' is declared both higher-is-better and lower-is-better"))
      << both.err;
}

TEST(CompareCommand, AnUnwritableOutputIsNamed) {
  const Files f;
  const auto r = kscope_cli("compare " + f.base + " " + f.slower + " --csv /nonexistent/dir/c.csv");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kscope: error: cannot write the comparison to '/nonexistent/dir/c.csv'\n");
}

TEST(CompareCommand, UsageErrorsExitTwo) {
  const Files f;
  EXPECT_EQ(kscope_cli("compare " + f.base).status, 2);               // NEW missing
  EXPECT_EQ(kscope_cli("compare " + f.base + " /nonexistent.json").status, 2);
}

}  // namespace
}  // namespace kscope
