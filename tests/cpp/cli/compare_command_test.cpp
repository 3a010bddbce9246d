// `kscope compare BASE NEW` run as a user would: the table, --md, --csv, --json, the exit status
// of --threshold (the golden 3-runs-a-side case among them), --noise, the filters, two
// directories, the warnings, and its usage errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
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
std::string sweep_file(const std::string& dir, const std::string& name, double slow,
                       const std::string& session = "sweep") {
  Results::Data d;
  d.name = session;
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
  const std::string files = "compare " + f.base + " " + f.slower;
  const auto first_line = [](const testing::CliResult& r) { return r.err.substr(0, r.err.find('\n')); };
  // An empty threshold is an error, never "no threshold".
  const auto empty = kscope_cli(files + " --threshold ''");
  EXPECT_EQ(empty.status, 2);
  EXPECT_EQ(first_line(empty), "kscope: error: Invalid threshold '': empty. Expected a percentage "
                               "such as 5% or a fraction such as 0.05.");
  const auto bare = kscope_cli(files + " --threshold 5");
  EXPECT_EQ(bare.status, 2);
  EXPECT_EQ(first_line(bare), "kscope: error: Invalid threshold '5': a bare number is a fraction "
                              "of BASE, so 5 is 500%; did you mean 5%?");
  EXPECT_EQ(kscope_cli(files + " --threshold -5%").status, 2);
  EXPECT_EQ(kscope_cli(files + " --noise 1.5").status, 2);
  EXPECT_EQ(kscope_cli(files + " --threshold 0.5%").status, 2);  // below the noise threshold
  EXPECT_EQ(kscope_cli(files + " --alpha abc").status, 2);
  EXPECT_EQ(kscope_cli(files + " --config n").status, 2);
  const auto mixed = kscope_cli("compare " + f.dir + " " + f.slower);
  EXPECT_EQ(mixed.status, 2);
  EXPECT_EQ(first_line(mixed), "kscope: error: BASE and NEW must both be result files or both be "
                               "directories: '" + f.dir + "' is a directory, '" + f.slower +
                               "' is not");
}

// The golden result (3 runs a side) with one annotation's times 30 % longer: the interval lies
// far beyond the noise, so the row is SLOWER and fails a 5 % threshold (the exact U test could
// not go below p = 0.1 with 3 runs; the row's test is Welch's t).
TEST(CompareCommand, ThreeRunsASideThirtyPercentSlowerFailsTheThreshold) {
  const Files f;
  nlohmann::json doc = nlohmann::json::parse(slurp(testing::fixture("golden/vadd_results.json")));
  for (auto& row : doc["raw"]) {
    if (row["Annotation"] == "fast" && row["Metric"] == "gpu__time_duration.sum" &&
        row["Value"].is_number()) {
      row["Value"] = row["Value"].get<double>() * 1.3;
    }
  }
  const std::string slower = f.dir + "golden_slower.json";
  std::ofstream(slower) << doc.dump();
  const auto r = kscope_cli("compare " + testing::fixture("golden/vadd_results.json") + " " +
                            slower + " --threshold 5%");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "fast        n=1024, dtype=f32          gpu__time_duration.sum  ns    "
                         "1010.00  1313.00  1.300   [1.271, 1.330]  +30.0%   4.3e-05  SLOWER "
                         "(beyond threshold)\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "2 SLOWER, 6 SAME; SLOWER beyond the threshold of 5%\n")) << r.out;
}

TEST(CompareCommand, TheNoiseThresholdMakesAChangeWithinItSame) {
  const Files f;
  const auto r = kscope_cli("compare " + f.base + " " + f.slower + " --noise 25% --threshold 25%");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "SAME (within noise)")) << r.out;
  EXPECT_TRUE(has(r.out, "4 SAME; nothing SLOWER beyond the threshold of 25%\n")) << r.out;
  EXPECT_TRUE(has(r.out, "FASTER/SLOWER: a change beyond the noise threshold of 25% with p < "
                         "0.05 after Holm's adjustment over 4 rows (docs/compare.md)\n"))
      << r.out;
}

TEST(CompareCommand, FiltersByAnnotationMetricAndConfig) {
  const Files f;
  const std::string files = "compare " + f.base + " " + f.slower;
  const auto slowed = kscope_cli(files + " --annotation 'slow*' --config n=2");
  EXPECT_EQ(slowed.status, 0) << slowed.err;
  EXPECT_TRUE(has(slowed.out, "\nslowed      n=2")) << slowed.out;
  EXPECT_TRUE(has(slowed.out, "\n1 SLOWER\n")) << slowed.out;
  const auto metric = kscope_cli(files + " --metric gpu__time_duration.sum --config n=1,n=2");
  EXPECT_TRUE(has(metric.out, "\n2 SLOWER, 2 SAME\n")) << metric.out;
  const auto none = kscope_cli(files + " --metric 'dram*'");
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.err, "kscope: error: metric filter 'dram*' matches no metric of BASE or NEW "
                      "(their metrics: gpu__time_duration.sum).\n");
}

TEST(CompareCommand, ADeclaredMetricNeitherResultHasIsAnErrorNamingTheMetrics) {
  const Files f;
  const auto r = kscope_cli("compare " + f.base + " " + f.slower + " --higher-is-better bandwith");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kscope: error: Metric 'bandwith' declared higher-is-better is not a metric of "
                   "BASE or NEW (their metrics: gpu__time_duration.sum).\n");
}

TEST(CompareCommand, TwoDirectoriesJoinBySessionName) {
  const Files f;
  namespace fs = std::filesystem;
  const std::string a = f.dir + "a/", b = f.dir + "b/";
  fs::create_directories(a);
  fs::create_directories(b);
  sweep_file(a, "x.json", 1.0, "vadd");
  sweep_file(a, "y.json", 1.0, "matmul");
  sweep_file(b, "renamed.json", 1.2, "vadd");  // joined by the session, not the file name
  const auto r = kscope_cli("compare " + a + " " + b + " --threshold 5% --md");
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "> warning: session 'matmul' is only in BASE\n")) << r.out;
  EXPECT_TRUE(has(r.out, "| Session | Annotation | Config |")) << r.out;
  // The regressed rows first, for a pull-request comment.
  const auto table = r.out.substr(r.out.find("| Session"));
  EXPECT_EQ(table.find("| vadd | slowed | n=1 |"), table.find("\n|", table.find("| ---")) + 1)
      << r.out;
  EXPECT_TRUE(has(r.out, "| matmul | steady | n=1 | gpu__time_duration.sum | ns | 1001.83 | - |"))
      << r.out;
  // A second result of one session in a directory is named, with both files.
  sweep_file(b, "again.json", 1.0, "vadd");
  const auto twice = kscope_cli("compare " + a + " " + b);
  EXPECT_EQ(twice.status, 1);
  EXPECT_EQ(twice.err, "kscope: error: '" + b + "' holds two results of session 'vadd': '" + b +
                           "again.json' and '" + b + "renamed.json'; keep one per session, or "
                           "compare the files\n");
  fs::create_directories(f.dir + "empty");
  const auto empty = kscope_cli("compare " + a + " " + f.dir + "empty");
  EXPECT_EQ(empty.status, 1);
  EXPECT_EQ(empty.err, "kscope: error: '" + f.dir + "empty' holds no kscope results (no .json or "
                       ".jsonl file)\n");
}

TEST(CompareCommand, AnUnfinishedJournalIsWarnedAboutNamingTheSide) {
  const Files f;
  const std::string journal = testing::fixture("golden/python/journal_unfinished.jsonl");
  const auto r = kscope_cli("compare " + journal + " " + journal);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\nwarning: BASE is the result of an unfinished session (journal '" +
                             journal + "'): the rows it had not measured yet are NEW_ONLY\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "\nwarning: NEW is the result of an unfinished session (journal '" +
                             journal + "'): the rows it had not measured yet are BASE_ONLY\n"))
      << r.out;
}

TEST(CompareCommand, NegativeMeansAreWarnedAboutNamingTheRow) {
  const Files f;
  Results::Data d = Results::load(f.base).data();
  for (auto& raw : d.raw) raw.value = -raw.value;
  const std::string negative = f.dir + "negative.json";
  Results(std::move(d)).write_json(negative);
  const auto r = kscope_cli("compare " + f.base + " " + negative);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\nwarning: no ratio for annotation 'steady', config 'n=1', metric "
                         "'gpu__time_duration.sum': NEW's mean is -1001.83 (a ratio needs "
                         "positive means), so the row is UNSURE (and 3 more rows of "
                         "'gpu__time_duration.sum')\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "\n4 UNSURE\n")) << r.out;
}

}  // namespace
}  // namespace kscope
