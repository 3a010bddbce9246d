// `kscope show` and `kscope import-ncu` on malformed files, and the exit codes of usage errors:
// the built binary is run as a user would. Every malformed file is one "kscope: error: ..." line
// naming it, exit status 1, never an abort; usage errors exit 2.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_runner.hpp"

namespace kscope {
namespace {

using testing::has;
using testing::kscope_cli;

std::string file_with(const std::string& name, const std::string& text) {
  const std::string path = testing::scratch_dir("cli_files_" + name) + name;
  std::ofstream(path) << text;
  return path;
}

struct ShowCase {
  const char* name;
  const char* text;
  const char* expected;
};

class ShowMalformed : public ::testing::TestWithParam<ShowCase> {};

TEST_P(ShowMalformed, IsOneErrorLineAndExitStatusOne) {
  const ShowCase& c = GetParam();
  const std::string path = file_with(c.name, c.text);
  const auto r = kscope_cli("show " + path);
  EXPECT_EQ(r.status, 1) << r.err;  // was 134 (abort) for the JSON type errors
  EXPECT_EQ(r.err.rfind("kscope: error: ", 0), 0u) << r.err;
  EXPECT_TRUE(has(r.err, "'" + path + "'")) << r.err;
  EXPECT_TRUE(has(r.err, c.expected)) << r.err;
  EXPECT_FALSE(has(r.err, "terminate called")) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ShowMalformed,
    ::testing::Values(
        ShowCase{"root_array.json", "[1]", "is not a kscope result file (expected a JSON object"},
        ShowCase{"kind_number.json", "{\"kind\": 5}", "whose kind is \"kscope.results\", found 5"},
        ShowCase{"not_json.json", "{\"kind\"",
                 "is not valid JSON at line 1, column 8: unexpected end of input; expected ':'\n"},
        ShowCase{"no_configs.json",
                 "{\"kind\": \"kscope.results\", \"schema_version\": \"1.0\", \"name\": \"x\"}",
                 "at /: the member \"configs\" is missing"},
        ShowCase{"journal_header.jsonl", "{\"kind\": \"kscope.journal\"}\n",
                 "line 1 at /: the member \"schema_version\" is missing"},
        ShowCase{"empty.json", "", "is empty (0 bytes): expected a kscope result (JSON) or journal"},
        ShowCase{"binary.json", "\x7f" "ELF\x02",
                 "is not a text file (byte \\x7F at offset 0): expected a kscope result"}),
    [](const auto& test) {
      std::string n = test.param.name;
      return n.substr(0, n.find('.'));
    });

class ImportNcuMalformed : public ::testing::TestWithParam<ShowCase> {};

TEST_P(ImportNcuMalformed, IsOneErrorLineAndExitStatusOne) {
  const ShowCase& c = GetParam();
  const std::string path = file_with(c.name, c.text);
  const auto r = kscope_cli("import-ncu " + path);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.rfind("kscope: error: '" + path + "'", 0), 0u) << r.err;
  EXPECT_TRUE(has(r.err, c.expected)) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ImportNcuMalformed,
    ::testing::Values(
        ShowCase{"other.csv", "a,b\n1,2\n", "expected the header row of ncu's raw page"},
        ShowCase{"no_units.csv", "\"ID\",\"Kernel Name\",\"Device\"\n",
                 "the units row after the header is missing"},
        ShowCase{"no_device.csv", "\"ID\",\"Kernel Name\"\n\"\",\"\"\n",
                 "the header has no \"Device\" column"},
        ShowCase{"fraction_id.csv",
                 "\"ID\",\"Kernel Name\",\"Device\"\n\"\",\"\",\"\"\n\"1.5\",\"k\",\"0\"\n",
                 "line 3: \"ID\" and \"Device\" must be integers"},
        ShowCase{"short_row.csv",
                 "\"ID\",\"Kernel Name\",\"Device\"\n\"\",\"\",\"\"\n\"1\",\"k\"\n",
                 "line 3: row has 2 cells, the header 3 (truncated file?)"},
        ShowCase{"empty.csv", "", "is empty (0 bytes)"},
        ShowCase{"twice.csv",
                 "\"ID\",\"Kernel Name\",\"Device\"\n\"\",\"\",\"\"\n\"1\",\"k\",\"0\"\n\"1\",\"k\",\"0\"\n",
                 "line 4: ID 1 again (first on line 3)"},
        ShowCase{"open_quote.csv",
                 "\"ID\",\"Kernel Name\",\"Device\"\n\"\",\"\",\"\"\n\"1\",\"k",
                 "line 3: a quoted cell is not closed"}),
    [](const auto& test) {
      std::string n = test.param.name;
      return n.substr(0, n.find('.'));
    });

// A kernel name that is not UTF-8 reaches the JSON with \xNN escapes (import-ncu -o aborted
// with rc 134 in nlohmann's writer).
TEST(ImportNcuNames, NotUtf8IsEscapedInTheJson) {
  const std::string path = file_with(
      "latin1.csv",
      "\"ID\",\"Kernel Name\",\"Device\",\"gpu__time_duration.sum\"\n\"\",\"\",\"\",\"ns\"\n"
      "\"0\",\"caf\xE9(int)\",\"0\",\"1,024\"\n");
  const std::string json = path + ".json";
  const auto r = kscope_cli("import-ncu " + path + " -o " + json);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(testing::slurp(json), "\"Kernel\": \"caf\\\\xE9\"")) << testing::slurp(json);
}

// A journal with a malformed line in the middle: the rest is shown, the skipped line named on
// stderr (issue 15, defect 8: every later line was dropped silently).
TEST(ShowJournal, MalformedLineIsNamedAndTheRestShown) {
  const std::string header =
      R"({"schema_version": "1.0", "kind": "kscope.journal", "name": "j", "parameters": ["n"],)"
      R"( "options": {}, "configs": [{"values": [10]}, {"values": [20]}]})";
  const auto runs = [](int config) {
    const std::string c = std::to_string(config);
    return R"({"kind": "runs", "runs": [{"config": )" + c +
           R"(, "run": 0, "entered": ["k"], "failed": []}], "records": [{"annotation": "k", )"
           R"("kernel": "vadd", "config": )" + c +
           R"(, "run": 0, "metrics": [["gpu__time_duration.sum", 100, "ns"]]}]})";
  };
  const std::string path =
      file_with("mid.jsonl", header + "\n" + runs(7) + "\n" + runs(1) + "\n{\"kind\": \"end\"}\n");
  const auto r = kscope_cli("show " + path);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "kscope: warning: journal '" + path +
                       "': line 2 at /runs/0/config: expected a config index below 2 (the number "
                       "of configs in the header), found 7 (the line was skipped; the result "
                       "lacks what it held)\n");
  EXPECT_TRUE(has(r.out, "k           20")) << r.out;
}

// A baseline with a format that has no compare table was ignored, and -o '' wrote to standard
// output, both without a word (issue 38).
TEST(ShowOptions, ABaselineTheFormatIgnoresAndAnEmptyOutputAreErrors) {
  const std::string path = testing::fixture("golden/vadd_results.json");
  const auto table = kscope_cli("show " + path + " --compare " + path + " -f table");
  EXPECT_EQ(table.status, 1);
  EXPECT_EQ(table.err,
            "kscope: error: format 'table' has no compare table: a baseline (kscope show "
            "--compare, compare=) applies to html, md only. Leave it out, or choose one of "
            "those.\n");
  EXPECT_EQ(table.out, "");
  const auto md = kscope_cli("show " + path + " --compare " + path + " -f md");
  EXPECT_EQ(md.status, 0) << md.err;
  EXPECT_TRUE(has(md.out, "### Compared with")) << md.out;
  const auto empty = kscope_cli("show " + path + " -o ''");
  EXPECT_EQ(empty.status, 2);
  EXPECT_EQ(empty.err,
            "kscope: error: --output: an empty path names no file; leave -o out to write to "
            "standard output\nRun 'kscope show --help' for usage.\n");
  EXPECT_EQ(empty.out, "");
}

TEST(CliExitCodes, UnknownSubcommandIsNamed) {
  const auto r = kscope_cli("frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "kscope: error: unknown subcommand 'frobnicate' (expected one of: show, query-metrics, "
            "check-metrics, import-ncu, merge, compare, plot)\nRun 'kscope --help' for usage.\n");
}

// Every usage error exits 2 (CLI11's own codes would be 105, 106, 109) with the error line and
// where the usage is.
TEST(CliExitCodes, UsageErrorsExitTwo) {
  const auto none = kscope_cli("");
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(has(none.err, "Subcommands:")) << none.err;  // the help, on stderr
  const auto missing = kscope_cli("show");
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "kscope: error: path is required\nRun 'kscope show --help' for usage.\n");
  const auto not_a_file = kscope_cli("show /nonexistent.json");
  EXPECT_EQ(not_a_file.status, 2);
  EXPECT_EQ(not_a_file.err,
            "kscope: error: path: File does not exist: /nonexistent.json\n"
            "Run 'kscope show --help' for usage.\n");
  EXPECT_EQ(kscope_cli("show --frob x").status, 2);  // unknown option
}

TEST(CliExitCodes, HelpAndVersionExitZero) {
  const auto help = kscope_cli("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_TRUE(has(help.out, "Usage: kscope [OPTIONS] SUBCOMMAND")) << help.out;
  EXPECT_TRUE(has(help.out, "\n  plot ")) << help.out;
  EXPECT_TRUE(has(help.out, "\nExit status:\n  0      success")) << help.out;
  EXPECT_TRUE(has(help.out, "\n  3      compare --threshold")) << help.out;
  EXPECT_TRUE(has(help.out, "\n  128+N  ended by signal N")) << help.out;
  const auto sub = kscope_cli("show --help");
  EXPECT_EQ(sub.status, 0);
  EXPECT_FALSE(has(sub.out, "Exit status:")) << sub.out;  // the top level's alone
  EXPECT_EQ(kscope_cli("--version").status, 0);
}

TEST(CliPlot, TheEnginesExecutableSaysWherePlotIs) {
  const auto r = kscope_cli("plot x.json --metric m");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "kscope: error: plot is part of the Python package's kscope command (pip install "
            "'kernelscope[plot]'); this is the engine's executable alone, which cannot draw\n");
}

}  // namespace
}  // namespace kscope
