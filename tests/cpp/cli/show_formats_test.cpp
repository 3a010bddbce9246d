// `kscope show --format X [-o FILE] [--compare OTHER]`: every registered format is reachable from
// the command line, from a saved result and from a journal.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli_runner.hpp"

namespace kscope {
namespace {

using testing::has;
using testing::kscope_cli;

const std::string kResult = testing::fixture("golden/vadd_results.json");
const std::string kJournal = testing::fixture("golden/python/journal_unfinished.jsonl");

TEST(ShowFormats, EveryFormatWritesToStandardOutput) {
  const std::pair<const char*, const char*> expected[] = {
      {"table", "kscope results: vadd #0"}, {"csv", "Annotation,Metric,n,dtype,AvgValue"},
      {"raw-csv", "Annotation,Value,Metric"}, {"findings-csv", "Check,Kind,Category"},
      {"json", "\"kind\": \"kscope.results\""}, {"parquet", "PAR1"}, {"trace", "{\"traceEvents\": ["},
      {"html", "<!DOCTYPE html>"}, {"md", "## kscope: vadd #0"}};
  for (const auto& [format, start] : expected) {
    const auto r = kscope_cli("show " + kResult + " --format " + format);
    EXPECT_EQ(r.status, 0) << format << ": " << r.err;
    EXPECT_TRUE(has(r.out, start)) << format << ": " << r.out.substr(0, 200);
  }
}

// With colour on (FORCE_COLOR here, a terminal otherwise: docs/cli.md) the table's header is
// bold and an incomplete result's note yellow; a file and the other formats stay plain.
TEST(ShowFormats, TheTableIsColouredWhenColourIsOn) {
  const auto table = kscope_cli("show " + kJournal, "FORCE_COLOR=1");
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_TRUE(has(table.out, "| \x1b[33mINCOMPLETE (journal of an unfinished session)\x1b[0m\n"))
      << table.out;
  EXPECT_TRUE(has(table.out, "\n\x1b[1mAnnotation  n ")) << table.out;
  EXPECT_FALSE(has(kscope_cli("show " + kJournal).out, "\x1b[")) << "a pipe gets no colour";
  EXPECT_FALSE(has(kscope_cli("show " + kJournal + " -f md", "FORCE_COLOR=1").out, "\x1b["));
  const std::string path = testing::scratch_dir("cli_show_colour") + "table.txt";
  EXPECT_EQ(kscope_cli("show " + kJournal + " -o " + path, "FORCE_COLOR=1").status, 0);
  EXPECT_FALSE(has(testing::slurp(path), "\x1b["));
}

TEST(ShowFormats, OutputGoesToTheFileGiven) {
  const std::string path = testing::scratch_dir("cli_show_output") + "vadd.trace.json";
  const auto r = kscope_cli("show " + kResult + " -f trace -o " + path);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const auto doc = nlohmann::json::parse(testing::slurp(path));
  EXPECT_GT(doc["traceEvents"].size(), 10u);
}

TEST(ShowFormats, AJournalToo) {
  const auto r = kscope_cli("show " + kJournal + " -f md");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "| Complete | no (journal of an unfinished session) |")) << r.out;
}

TEST(ShowFormats, CompareAddsTheCompareTable) {
  const auto r = kscope_cli("show " + kResult + " -f html --compare " + kResult);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "<h2>Compared with vadd #0</h2>"));
  EXPECT_TRUE(has(r.out, "<div class=\"kscope-comparison\">")) << r.out;
  EXPECT_TRUE(has(r.out, "kscope-verdict-same")) << r.out;
}

TEST(ShowFormats, UnknownFormatIsAUsageErrorListingTheFormats) {
  const auto r = kscope_cli("show " + kResult + " --format pdf");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "--format: pdf not in {table,csv,raw-csv,findings-csv,json,parquet,trace,html,md}"))
      << r.err;
}

TEST(ShowFormats, UnwritableOutputIsAnErrorNamingIt) {
  const auto r = kscope_cli("show " + kResult + " -f md -o /nonexistent-dir/r.md");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kscope: error: cannot write '/nonexistent-dir/r.md': No such file or directory\n");
}

}  // namespace
}  // namespace kscope
