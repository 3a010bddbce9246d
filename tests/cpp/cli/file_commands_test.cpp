// `kscope show` and `kscope import-ncu` on malformed files, and the exit codes of usage errors:
// the built binary is run as a user would. Every malformed file is one "kscope: ..." line naming
// it, exit status 1, never an abort; usage errors exit 2.
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
  EXPECT_EQ(r.err.rfind("kscope: ", 0), 0u) << r.err;
  EXPECT_TRUE(has(r.err, "'" + path + "'")) << r.err;
  EXPECT_TRUE(has(r.err, c.expected)) << r.err;
  EXPECT_FALSE(has(r.err, "terminate called")) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ShowMalformed,
    ::testing::Values(
        ShowCase{"root_array.json", "[1]", "is not a kscope result file (expected a JSON object"},
        ShowCase{"kind_number.json", "{\"kind\": 5}", "whose kind is \"kscope.results\", found 5"},
        ShowCase{"not_json.json", "{\"kind\"", "is not valid JSON"},
        ShowCase{"no_configs.json",
                 "{\"kind\": \"kscope.results\", \"schema_version\": \"1.0\", \"name\": \"x\"}",
                 "at /: the member \"configs\" is missing"},
        ShowCase{"journal_header.jsonl", "{\"kind\": \"kscope.journal\"}\n",
                 "line 1 at /: the member \"schema_version\" is missing"}),
    [](const auto& test) {
      std::string n = test.param.name;
      return n.substr(0, n.find('.'));
    });

TEST(CliExitCodes, UnknownSubcommandIsNamed) {
  const auto r = kscope_cli("frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "kscope: unknown subcommand 'frobnicate' (expected one of: show, query-metrics, "
            "check-metrics, import-ncu). Run 'kscope --help' for usage.\n");
}

TEST(CliExitCodes, UsageErrorsExitTwo) {
  EXPECT_EQ(kscope_cli("").status, 2);                  // no subcommand (CLI11: 106)
  EXPECT_EQ(kscope_cli("show").status, 2);              // missing argument
  EXPECT_EQ(kscope_cli("show /nonexistent.json").status, 2);  // not a file (CLI11: 105)
  EXPECT_EQ(kscope_cli("show --frob x").status, 2);     // unknown option (CLI11: 109)
  const auto help = kscope_cli("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_TRUE(has(help.out, "Exit status: 0 success, 1 error")) << help.out;
  EXPECT_EQ(kscope_cli("--version").status, 0);
}

}  // namespace
}  // namespace kscope
