// Malformed result files and journals: every case is one FileFormatError (Python:
// FileFormatError) naming the file, the line or JSON path, what was expected and what was found.
// Each case starts from a valid file and changes one thing.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../core/records.hpp"
#include "journal_sample.hpp"
#include "kscope/errors.hpp"
#include "report/journal.hpp"
#include "support/error_text.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

using Json = nlohmann::json;
using testing::contains;
using testing::error_text;
using testing::kernel;
using testing::run_log;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// One change to a valid document: the value at `pointer` becomes `value` (JSON text), or the
// member is removed when `value` is empty.
struct Patch {
  std::string pointer;
  std::string value;
};

Json patched(Json j, const Patch& p) {
  const Json::json_pointer ptr(p.pointer);
  if (p.value.empty()) {
    j.at(ptr.parent_pointer()).erase(ptr.back());
  } else {
    j[ptr] = Json::parse(p.value);
  }
  return j;
}

struct ResultCase {
  const char* name;
  Patch patch;
  const char* expected;  // part of the message after the file name
};

class BadResultFile : public ::testing::TestWithParam<ResultCase> {};

TEST_P(BadResultFile, IsOneFileFormatErrorNamingThePathAndTheValue) {
  const ResultCase& c = GetParam();
  const Json golden = Json::parse(read_text(testing::fixture("golden/vadd_results.json")));
  const std::string path = testing::scratch_dir(std::string("bad_result_") + c.name) + "r.json";
  write_text(path, patched(golden, c.patch).dump(1));
  const std::string text = error_text<FileFormatError>([&] { (void)Results::load(path); });
  EXPECT_TRUE(contains(text, "'" + path + "'")) << text;
  EXPECT_TRUE(contains(text, c.expected)) << text;
}

INSTANTIATE_TEST_SUITE_P(
    Matrix, BadResultFile,
    ::testing::Values(
        ResultCase{"kind_number", {"/kind", "5"}, "found 5"},
        ResultCase{"kind_other", {"/kind", "\"x\""}, "whose kind is \"kscope.results\", found \"x\""},
        ResultCase{"no_configs", {"/configs", ""}, "at /: the member \"configs\" is missing"},
        ResultCase{"configs_object", {"/configs", "{}"}, "at /configs: expected an array, found an object"},
        ResultCase{"config_values_short", {"/configs/1/values", "[1]"},
                   "at /configs/1/values: expected an array of 2 values (one per parameter)"},
        ResultCase{"no_schema", {"/schema_version", ""}, "the member \"schema_version\" is missing"},
        ResultCase{"schema_2", {"/schema_version", "\"2.0\""},
                   "at /schema_version: expected a schema_version this kscope reads"},
        ResultCase{"name_number", {"/name", "3"}, "at /name: expected a string, found 3"},
        ResultCase{"runs_string", {"/options/runs", "\"3\""},
                   "at /options/runs: expected an integer from -2147483648 to 2147483647, found \"3\""},
        ResultCase{"verbosity_9", {"/options/verbosity", "9"},
                   "at /options/verbosity: expected a verbosity from 0 to 4, found 9"},
        ResultCase{"metrics_mixed", {"/options/metrics", "[\"a\", 1]"},
                   "at /options/metrics/1: expected a string, found 1"},
        ResultCase{"raw_object", {"/raw", "{}"}, "at /raw: expected an array, found an object"},
        ResultCase{"raw_no_metric", {"/raw/0/Metric", ""}, "at /raw/0: the member \"Metric\" is missing"},
        ResultCase{"raw_config_7", {"/raw/0/config", "7"},
                   "at /raw/0/config: expected a config index below 2 (the number of configs in the "
                   "header), found 7"},
        ResultCase{"raw_value_string", {"/raw/0/Value", "\"fast\""},
                   "at /raw/0/Value: expected a number or null, found \"fast\""},
        ResultCase{"num_runs_negative", {"/processed/0/NumRuns", "-3"},
                   "at /processed/0/NumRuns: expected a non-negative integer, found -3"},
        ResultCase{"num_runs_fraction", {"/processed/0/NumRuns", "1.5"},
                   "at /processed/0/NumRuns: expected a non-negative integer, found 1.5"},
        ResultCase{"num_runs_huge", {"/processed/0/NumRuns", "1e300"},
                   "at /processed/0/NumRuns: expected a non-negative integer, found 1e+300"},
        ResultCase{"processed_config_7", {"/processed/1/config", "7"},
                   "at /processed/1/config: expected a config index below 2"},
        ResultCase{"processed_config_negative", {"/processed/0/config", "-1"},
                   "at /processed/0/config: expected a non-negative integer, found -1"},
        ResultCase{"normalized_number", {"/processed/0/Normalized", "1"},
                   "at /processed/0/Normalized: expected the annotation normalized against, or "
                   "false, found 1"},
        ResultCase{"stable_string", {"/processed/0/StableMeasurement", "\"yes\""},
                   "at /processed/0/StableMeasurement: expected true or false, found \"yes\""},
        ResultCase{"telemetry_object", {"/telemetry", "{}"}, "at /telemetry: expected an array"},
        ResultCase{"findings_item", {"/findings", "[{\"kind\": \"x\"}]"},
                   "at /findings/0: the member \"check\" is missing"},
        ResultCase{"finding_block", {"/findings", "[{\"check\": \"memcheck\", \"block\": [1, -2, 3]}]"},
                   "at /findings/0/block/1: expected a non-negative integer up to 4294967295, found -2"},
        ResultCase{"info_scope", {"/info_columns", "[{\"name\": \"x\", \"scope\": \"always\"}]"},
                   "at /info_columns/0/scope: expected an info collector scope"},
        ResultCase{"metadata_sm_count", {"/metadata/sm_count", "1e10"},
                   "at /metadata/sm_count: expected an integer from -2147483648 to 2147483647, found "
                   "10000000000"}),
    [](const auto& test) { return std::string(test.param.name); });

// Config values are whatever JSON holds: an integer beyond int64 (Python's 2**64) is a number.
TEST(BadResultFile, ConfigValueBeyondInt64IsKeptAsANumber) {
  Json golden = Json::parse(read_text(testing::fixture("golden/vadd_results.json")));
  golden["configs"][0]["values"][0] = Json::parse("18446744073709551615");  // uint64 max
  const std::string path = testing::scratch_dir("bad_result_big_value") + "r.json";
  write_text(path, golden.dump(1));
  EXPECT_EQ(Results::load(path).configs().at(0)[0], Value(18446744073709551615.0));
}

TEST(BadResultFile, RootThatIsNoObject) {
  const std::string path = testing::scratch_dir("bad_result_root") + "r.json";
  write_text(path, "[1]");
  EXPECT_EQ(error_text<FileFormatError>([&] { (void)Results::load(path); }),
            "'" + path + "' is not a kscope result file (expected a JSON object whose kind is "
            "\"kscope.results\", found an array of 1 element)");
}

// Text that is not JSON: the file, the line and column where reading stopped, and why, in
// kscope's words (never nlohmann's "[json.exception.parse_error.101] ...").
TEST(BadResultFile, TextThatIsNoJson) {
  const std::string path = testing::scratch_dir("bad_result_text") + "r.json";
  const std::pair<const char*, const char*> cases[] = {
      {"{\"kind\": ", "line 1, column 10: unexpected end of input; expected '[', '{', or a literal"},
      {"{\n \"kind\": \"x\",\n \"id\": tru\n}", "line 3, column 11: invalid literal; last read: '\"id\": tru<U+000A>'"},
      {"{\"a\": 1,\n \"b\": 2 \"c\"}", "line 2, column 11: unexpected string literal; expected '}'"},
      {"{\"a\": 1e999}", "number overflow parsing '1e999'"},
  };
  for (const auto& [text, why] : cases) {
    write_text(path, text);
    const std::string error = error_text<FileFormatError>([&] { (void)Results::load(path); });
    const std::string where = std::string(why).rfind("line ", 0) == 0 ? " at " : ": ";
    EXPECT_EQ(error, "'" + path + "' is not valid JSON" + where + why) << text;
  }
}

// An empty file was "not valid JSON at line 1, column 1", a binary one "invalid literal" there
// (issue 38): they are said to be empty and not text.
TEST(BadResultFile, EmptyAndBinaryFilesAreSaidToBeSo) {
  const std::string path = testing::scratch_dir("bad_result_kind") + "r.json";
  const std::string expected = ": expected a kscope result (JSON) or journal (JSON lines)";
  const std::pair<std::string, std::string> cases[] = {
      {"", "is empty (0 bytes)"},
      {" \n\n", "is empty (only white space)"},
      {std::string("{\"kind\"\0\x01", 9), "is not a text file (byte \\x00 at offset 7)"},
      {"5\x02\xff\xfe", "is not a text file (byte \\x02 at offset 1)"},
  };
  for (const auto& [text, why] : cases) {
    write_text(path, text);
    EXPECT_EQ(error_text<FileFormatError>([&] { (void)Results::load(path); }),
              "'" + path + "' " + why + expected);
  }
}

// Configs with values under an empty "parameters" were named arg0, arg1 without a word.
TEST(BadResultFile, ValuesWithoutParametersAreNamed) {
  const std::string path = testing::scratch_dir("bad_result_parameters") + "r.json";
  Json j = Json::parse(read_text(testing::fixture("golden/vadd_results.json")));
  j["parameters"] = Json::array();
  write_text(path, j.dump());
  const std::string text = error_text<FileFormatError>([&] { (void)Results::load(path); });
  EXPECT_TRUE(contains(text, "at /configs/0/values: expected no values, as the header's "
                             "\"parameters\" is empty or missing, found an array of "))
      << text;
}

// --- journals ---------------------------------------------------------------------------------

// The load warnings of a journal, one text.
std::string warnings_of(const Results& r) {
  std::string out;
  for (const auto& w : r.load_warnings()) out += w + "\n";
  return out;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A complete journal of schema 1.0 (as kscope wrote them before the compact journal) of 3 lines
// after the header: config 0 (2 runs), config 1 (1 run), end.
std::vector<std::string> journal_lines() { return lines_of(testing::fixture("journal/v1_sample.jsonl")); }

// The same journal as this kscope writes it (schema 2.0): the header, a "names" line, the two
// runs lines, end.
std::vector<std::string> compact_journal_lines(const std::string& dir) {
  const std::string path = dir + "valid.jsonl";
  {
    report::JournalWriter w(path, testing::journal_header());
    w.append({run_log(0, 0, {"k"}), run_log(0, 1, {"k"})},
             {kernel("k", "vadd", 0, 0, 100, 1), kernel("k", "vadd", 0, 1, 110, 2)});
    w.append({run_log(1, 0, {"k"})}, {kernel("k", "vadd", 1, 0, 200, 3)});
    w.close("");
  }
  return lines_of(path);
}

std::string write_lines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path);
  for (const auto& l : lines) out << l << "\n";
  return path;
}

struct JournalCase {
  const char* name;
  std::size_t line;  // 0-based index into journal_lines()
  Patch patch;
  const char* expected;
};

class BadJournalHeader : public ::testing::TestWithParam<JournalCase> {};

TEST_P(BadJournalHeader, IsOneFileFormatErrorNamingLineOne) {
  const JournalCase& c = GetParam();
  const std::string dir = testing::scratch_dir(std::string("bad_journal_") + c.name);
  auto lines = journal_lines();
  lines[c.line] = patched(Json::parse(lines[c.line]), c.patch).dump();
  const std::string path = write_lines(dir + "j.jsonl", lines);
  const std::string text = error_text<FileFormatError>([&] { (void)Results::load(path); });
  EXPECT_TRUE(contains(text, "'" + path + "' line 1 ")) << text;
  EXPECT_TRUE(contains(text, c.expected)) << text;
}

INSTANTIATE_TEST_SUITE_P(
    Matrix, BadJournalHeader,
    ::testing::Values(
        JournalCase{"no_configs", 0, {"/configs", ""}, "at /: the member \"configs\" is missing"},
        JournalCase{"no_schema", 0, {"/schema_version", ""},
                    "at /: the member \"schema_version\" is missing"},
        JournalCase{"options_array", 0, {"/options", "[]"}, "at /options: expected an object"},
        JournalCase{"runs_float", 0, {"/options/runs", "2.5"},
                    "at /options/runs: expected an integer from -2147483648 to 2147483647, found 2.5"},
        JournalCase{"name_null", 0, {"/name", "null"}, "at /name: expected a string, found null"},
        JournalCase{"schema_3", 0, {"/schema_version", "\"3.0\""},
                    "at /schema_version: expected a schema_version this kscope reads (1.0 to 2.0), "
                    "found \"3.0\""}),
    [](const auto& test) { return std::string(test.param.name); });

class BadJournalLine : public ::testing::TestWithParam<JournalCase> {};

// A malformed line after the header is skipped with a warning that names it and why; the lines
// after it still load (they were all dropped before), and the result is not complete.
TEST_P(BadJournalLine, IsSkippedWithAWarningAndTheRestLoads) {
  const JournalCase& c = GetParam();
  const std::string dir = testing::scratch_dir(std::string("bad_journal_line_") + c.name);
  auto lines = journal_lines();
  lines[c.line] = patched(Json::parse(lines[c.line]), c.patch).dump();
  const std::string path = write_lines(dir + "j.jsonl", lines);
  const Results r = Results::load(path);
  const std::string warning = warnings_of(r);
  ASSERT_EQ(r.load_warnings().size(), 1u) << warning;
  EXPECT_EQ(warning.rfind("journal '" + path + "': line 2 " + std::string(c.expected), 0), 0u)
      << warning;
  EXPECT_TRUE(contains(warning, " (the line was skipped; the result lacks what it held)\n"))
      << warning;
  EXPECT_FALSE(r.complete());
  ASSERT_EQ(r.processed().size(), 1u);  // config 1, from line 3
  EXPECT_EQ(r.processed()[0].config, 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Matrix, BadJournalLine,
    ::testing::Values(
        JournalCase{"no_metrics", 1, {"/records/0/metrics", ""},
                    "at /records/0: the member \"metrics\" is missing"},
        JournalCase{"config_7", 1, {"/runs/0/config", "7"},
                    "at /runs/0/config: expected a config index below 2"},
        JournalCase{"record_config_7", 1, {"/records/1/config", "7"},
                    "at /records/1/config: expected a config index below 2"},
        JournalCase{"run_negative", 1, {"/runs/1/run", "-1"},
                    "at /runs/1/run: expected a non-negative integer, found -1"},
        JournalCase{"runs_missing", 1, {"/runs", ""}, "at /: the member \"runs\" is missing"},
        JournalCase{"kind_unknown", 1, {"/kind", "\"batch\""},
                    "at /kind: expected \"runs\", \"metadata\", \"findings\", \"failed\", \"stop\" or \"end\", found \"batch\""},
        JournalCase{"metric_value_text", 1, {"/records/0/metrics/0/1", "\"x\""},
                    "at /records/0/metrics/0/1: expected a number or null, found \"x\""},
        JournalCase{"metric_short", 1, {"/records/0/metrics/0", "[\"m\"]"},
                    "at /records/0/metrics/0: expected an array of at least 2 elements"},
        // Accepted before issue 38.
        JournalCase{"entered_twice", 1, {"/runs/0/entered", "[\"k\", \"k\"]"},
                    "at /runs/0/entered: annotation \"k\" is listed twice (a run enters each "
                    "annotation at most once)"}),
    [](const auto& test) { return std::string(test.param.name); });

class BadCompactJournalLine : public ::testing::TestWithParam<JournalCase> {};

// Schema 2.0's runs lines are checked as 1.0's are: a malformed one is skipped with a warning
// naming the element, and the next line still loads.
TEST_P(BadCompactJournalLine, IsSkippedWithAWarningAndTheRestLoads) {
  const JournalCase& c = GetParam();
  const std::string dir = testing::scratch_dir(std::string("bad_compact_line_") + c.name);
  auto lines = compact_journal_lines(dir);
  ASSERT_EQ(lines.size(), 5u);
  lines[c.line] = patched(Json::parse(lines[c.line]), c.patch).dump();
  const std::string path = write_lines(dir + "j.jsonl", lines);
  const Results r = Results::load(path);
  const std::string warning = warnings_of(r);
  ASSERT_EQ(r.load_warnings().size(), 1u) << warning;
  EXPECT_EQ(warning, "journal '" + path + "': line 3 " + std::string(c.expected) +
                         " (the line was skipped; the result lacks what it held)\n");
  EXPECT_FALSE(r.complete());
  ASSERT_EQ(r.processed().size(), 1u);  // config 1, from line 4
  EXPECT_EQ(r.processed()[0].config, 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Matrix, BadCompactJournalLine,
    ::testing::Values(
        JournalCase{"run_config_7", 2, {"/runs/0/0", "7"},
                    "at /runs/0/0: expected a config index below 2 (the number of configs in the "
                    "header), found 7"},
        JournalCase{"record_config_7", 2, {"/records/1/0", "7"},
                    "at /records/1/0: expected a config index below 2 (the number of configs in "
                    "the header), found 7"},
        JournalCase{"unnamed_kernel", 2, {"/records/0/3", "4"},
                    "at /records/0/3: expected an index below 1 (the kernels named on earlier "
                    "\"names\" lines), found 4"},
        JournalCase{"unnamed_annotation", 2, {"/runs/1/2", "[1]"},
                    "at /runs/1/2/0: expected an index below 1 (the annotations named on earlier "
                    "\"names\" lines), found 1"},
        JournalCase{"metric_without_value", 2, {"/records/0/6", "[0]"},
                    "at /records/0/6: expected an array of metric and value pairs, found an array of 1 "
                    "element"},
        JournalCase{"metric_value_text", 2, {"/records/0/6/1", "\"x\""},
                    "at /records/0/6/1: expected a number or null, found \"x\""},
        JournalCase{"record_short", 2, {"/records/0", "[0, 0, 0]"},
                    "at /records/0: expected an array of at least 4 elements, found an array of 3 "
                    "elements"},
        JournalCase{"entered_twice", 2, {"/runs/0/2", "[0, 0]"},
                    "at /runs/0/2: annotation \"k\" is listed twice (a run enters each "
                    "annotation at most once)"},
        JournalCase{"kind_unknown", 2, {"/kind", "\"batch\""},
                    "at /kind: expected \"names\", \"runs\", \"metadata\", \"findings\", "
                    "\"failed\", \"stop\" or \"end\", found \"batch\""}),
    [](const auto& test) { return std::string(test.param.name); });

// A "names" line whose index does not follow on from its table is skipped, so that no name
// lands at another index; the lines that use its names are skipped too, and say why.
TEST(BadCompactJournalLine, NamesOutOfOrderAreNotShifted) {
  const std::string dir = testing::scratch_dir("bad_compact_names");
  auto lines = compact_journal_lines(dir);
  lines[1] = patched(Json::parse(lines[1]), {"/kernels/0/0", "1"}).dump();
  const Results r = Results::load(write_lines(dir + "j.jsonl", lines));
  const std::string warning = warnings_of(r);
  ASSERT_EQ(r.load_warnings().size(), 3u) << warning;
  EXPECT_TRUE(contains(warning, "line 2 at /kernels/0/0: expected index 0, the next of the kernels "
                                "table, found 1"))
      << warning;
  EXPECT_TRUE(contains(warning, "line 3 at /runs/0/2/0: expected an index below 0 (the "
                                "annotations named on earlier \"names\" lines), found 0"))
      << warning;
  EXPECT_TRUE(r.processed().empty());
}

// A "failed" or "metadata" line that does not follow the schema is skipped like any other line.
TEST(BadJournalLine, FailedAndMetadataLines) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"kind": "failed", "failure": {"config": 7, "type": "ValueError"}})",
       "line 4 at /failure/config: expected a config index below 2"},
      {R"({"kind": "failed", "failure": {"config": 0}})",
       "line 4 at /failure: the member \"type\" is missing"},
      {R"({"kind": "failed"})", "line 4 at /: the member \"failure\" is missing"},
      {R"({"kind": "metadata", "metadata": []})", "line 4 at /metadata: expected an object"},
  };
  for (const auto& [line, expected] : cases) {
    const std::string dir = testing::scratch_dir("bad_failed_line");
    auto lines = journal_lines();
    lines.insert(lines.begin() + 3, line);
    const Results r = Results::load(write_lines(dir + "j.jsonl", lines));
    EXPECT_TRUE(contains(warnings_of(r), expected)) << warnings_of(r);
    EXPECT_TRUE(r.failed_configs().empty());
    EXPECT_EQ(r.processed().size(), 2u);
  }
}

// Every member of a run and of a kernel record, removed or given an object: the line is skipped
// with a warning naming the member's path, and the next line still loads.
TEST(BadJournalLine, EveryRequiredMemberOfRunsAndRecords) {
  const std::string dir = testing::scratch_dir("bad_journal_members");
  const auto valid = journal_lines();
  std::vector<std::pair<std::string, std::string>> members;  // parent, key
  for (const char* key : {"config", "run", "entered", "failed"}) members.emplace_back("/runs/0", key);
  for (const char* key : {"annotation", "kernel", "config", "run", "metrics"}) {
    members.emplace_back("/records/0", key);
  }
  for (const auto& [parent, key] : members) {
    for (const char* value : {"", "{}"}) {
      SCOPED_TRACE(parent + "/" + key + " = '" + value + "'");
      auto lines = valid;
      lines[1] = patched(Json::parse(lines[1]), {parent + "/" + key, value}).dump();
      const std::string path = write_lines(dir + "j.jsonl", lines);
      const Results r = Results::load(path);
  const std::string warning = warnings_of(r);
      const std::string expected =
          *value ? "line 2 at " + parent + "/" + key + ": expected "
                 : "line 2 at " + parent + ": the member \"" + key + "\" is missing";
      EXPECT_TRUE(contains(warning, expected)) << warning;
      if (*value) {
        EXPECT_TRUE(contains(warning, "found an object")) << warning;
      }
      ASSERT_EQ(r.processed().size(), 1u);
      EXPECT_FALSE(r.complete());
    }
  }
}

TEST(BadJournalLine, LineThatIsNoJsonMidJournal) {
  const std::string dir = testing::scratch_dir("bad_journal_text");
  auto lines = journal_lines();
  lines[1] = "{\"kind\": \"runs\", \"ru";
  const std::string path = write_lines(dir + "j.jsonl", lines);
  const Results r = Results::load(path);
  const std::string warning = warnings_of(r);
  EXPECT_EQ(warning, "journal '" + path + "': line 2 is not JSON (cut or corrupted) (the line was "
                     "skipped; the result lacks what it held)\n");
  ASSERT_EQ(r.processed().size(), 1u);
  EXPECT_FALSE(r.complete());
}

// What a crash or a full disk leaves: the cut last line is skipped with a warning naming it,
// printing nothing, and the lines before it load.
TEST(BadJournalLine, CutLastLineIsSkippedWithAWarning) {
  const std::string dir = testing::scratch_dir("bad_journal_cut");
  auto lines = journal_lines();
  lines.back() = lines.back().substr(0, 5);
  const std::string path = write_lines(dir + "j.jsonl", lines);
  ::testing::internal::CaptureStdout();
  const Results r = Results::load(path);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(warnings_of(r), "journal '" + path + "': line " + std::to_string(lines.size()) +
                                " is cut short (the process ended while writing it) (the line "
                                "was skipped; the result lacks what it held)\n");
  EXPECT_EQ(r.processed().size(), 2u);
  EXPECT_FALSE(r.complete());
}

TEST(BadJournalLine, FirstLineThatIsNoJson) {
  const std::string dir = testing::scratch_dir("bad_journal_first");
  auto lines = journal_lines();
  lines[0] = lines[0].substr(0, lines[0].size() - 3);  // still names kscope.journal
  const std::string path = write_lines(dir + "j.jsonl", lines);
  const std::string text = error_text<FileFormatError>([&] { (void)Results::load(path); });
  EXPECT_EQ(text.rfind("'" + path + "' is not valid JSON at line 1, column ", 0), 0u) << text;
  EXPECT_FALSE(contains(text, "json.exception")) << text;
}

// A line that is not UTF-8 is named as such wherever it is, the last line too (a cut line ends
// early; it holds no other bytes); the line after it still loads.
TEST(BadJournalLine, LineThatIsNoUtf8IsNamedWhereverItIs) {
  const std::string dir = testing::scratch_dir("bad_journal_utf8");
  for (const std::size_t line : {std::size_t{1}, std::size_t{2}}) {
    auto lines = journal_lines();
    if (line == 2) lines.pop_back();  // no "end" line: line 3 is the last
    const auto at = lines[line].find("\"k\"");
    lines[line].replace(at, 3, "\"k\xff\"");
    const std::string path = write_lines(dir + "j.jsonl", lines);
    const Results r = Results::load(path);
    EXPECT_EQ(warnings_of(r), "journal '" + path + "': line " + std::to_string(line + 1) +
                                  " is not UTF-8 text (byte \\xFF at column " +
                                  std::to_string(at + 3) +
                                  ") (the line was skipped; the result lacks what it held)\n");
    EXPECT_EQ(r.processed().size(), 1u);
    EXPECT_FALSE(r.complete());
  }
}

// A header without options loaded silently with kscope's defaults in their place (issue 38).
TEST(BadJournalLine, AHeaderWithoutOptionsIsWarnedAbout) {
  const std::string dir = testing::scratch_dir("bad_journal_no_options");
  auto lines = journal_lines();
  lines[0] = patched(Json::parse(lines[0]), {"/options", ""}).dump();
  const std::string path = write_lines(dir + "j.jsonl", lines);
  const Results r = Results::load(path);
  EXPECT_EQ(warnings_of(r), "journal '" + path + "': its header (line 1) has no \"options\"; the "
                            "result shows kscope's defaults in their place, and resume cannot check "
                            "that they are the sweep's\n");
  EXPECT_EQ(r.processed().size(), 2u);
}

TEST(BadJournalLine, EmptyJournal) {
  const std::string path = testing::scratch_dir("bad_journal_empty") + "j.jsonl";
  write_text(path, "\n\n");
  EXPECT_EQ(error_text<FileFormatError>([&] { (void)report::load_journal(path); }),
            "journal '" + path + "' is empty or has no header line");
}

}  // namespace
}  // namespace kscope
