// The streamed reader of JSON results (report/result_reader.hpp): on every file kscope writes it
// reads what the tree's reader reads, value for value; on anything else it declines, and
// Results::load reads the file as a tree (whose errors bad_input_test checks); it skips the tables
// a command does not need.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "kscope/errors.hpp"
#include "report/json_tape.hpp"
#include "report/result_reader.hpp"
#include "sample_results.hpp"

namespace kscope {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "kscope_result_reader_" + name + ".json";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Every table of a result filled: info columns, telemetry, findings, failures, stops, a timeline
// of two parts, and names that JSON escapes.
Results full_result() {
  Results::Data d = testing::sample_results(false).data();
  d.name = "v\"add\\ \xC3\xA9 \xF0\x9F\x98\x80";
  d.info_columns = {{"clock", CollectionScope::kConfig, false}, {"tag", CollectionScope::kRun, true}};
  for (auto& r : d.raw) r.info = {InfoValue(1.5), InfoValue(std::string("x\ty"))};
  for (auto& p : d.processed) {
    p.info = std::vector<InfoValue>(processed_info_columns(d.info_columns).size(), InfoValue(2.0));
  }
  TelemetrySample s;
  s.sm_clock_mhz = 1980;
  s.power_w = 312.25;
  s.clock_event_reasons = 0x4;
  s.age_ms = 3.5;
  d.telemetry = {{0, 0, 0, s, s, 0.0}, {1, 2, 0, s, std::nullopt, 1.25}};
  Finding f;
  f.check = "memcheck";
  f.kind = "Invalid __global__ write of size 4 bytes";
  f.block = Dim3{1, 2, 3};
  f.pc = 18446744073709551615ULL;
  f.host_stack = {"main (a.out+0x10)", "libc"};
  f.config = 1;
  d.findings = {f};
  d.failures = {{1, 2, false, "ValueError", "bad \"size\"\n"}};
  d.stops = {{0, 3, "target", 0.004, 0.5}, {1, 3, "max_runs", std::nan(""), 0.75}};
  d.timeline.parts = {"rank 0: a.json", "rank 1: b.json"};
  d.timeline.phases = {{"benchmark", 0, 0, false, 0, "", 100, 200, 0},
                       {"journal", std::nullopt, std::nullopt, false, 0, "", 200, 300, 1},
                       {"region entry", 1, 2, true, 1, "baseline", 300, 400, 1},
                       // Brackets and escapes in strings, for the scan that skips the timeline.
                       {"region entry", 1, 2, false, 0, "b}\"]{[\\\"", 400, 450, 0},
                       {"region entry", 1, 2, false, 0, std::string(70, '}') + "\\", 450, 460, 0}};
  d.timeline.kernels = {{"baseline", "vadd", 0, 0, false, 0, 7, 110, 190, 0},
                        {"fast", "vadd_vec4", 1, 2, false, 1, std::nullopt, 310, 390, 1}};
  d.metadata.duration_definition = "activity";
  d.configs.push_back(Config({Value(std::int64_t{-9223372036854775807 - 1}), Value(std::string("\\u"))},
                             d.parameters));
  d.configs.back().set_index(2);
  return Results(std::move(d));
}

// Streamed and tree reads of `path`, compared as the JSON they write.
void expect_read_alike(const std::string& path) {
  const auto streamed = report::read_result_streamed(path, {});
  ASSERT_TRUE(streamed.has_value()) << path;
  EXPECT_EQ(Results(*streamed).to_json(), Results(report::read_result_tree(path)).to_json()) << path;
}

TEST(ResultReaderTest, ReadsWhatTheTreeReadsOfEveryResultKscopeWrites) {
  for (bool normalized : {false, true}) {
    const std::string path = temp_path(normalized ? "normalized" : "plain");
    testing::sample_results(normalized).write_json(path);
    expect_read_alike(path);
  }
  const std::string full = temp_path("full");
  full_result().write_json(full);
  expect_read_alike(full);
  const Results back = Results::load(full);
  EXPECT_EQ(back.name(), "v\"add\\ \xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(back.findings().at(0).pc, 18446744073709551615ULL);
  EXPECT_EQ(back.configs().at(2)[0].get<std::int64_t>(), -9223372036854775807 - 1);
  EXPECT_EQ(back.timeline().phases.at(2).annotation, "baseline");
  EXPECT_EQ(back.timeline().phases.at(3).annotation, "b}\"]{[\\\"");
  EXPECT_EQ(back.to_json(), full_result().to_json());
  for (const char* golden : {"vadd_results.json", "info_collectors_results.json"}) {
    expect_read_alike(std::string(KSCOPE_FIXTURES_DIR) + "/golden/" + golden);
  }
}

TEST(ResultReaderTest, ReadsEscapesNumbersAndLayoutsAsTheTreeDoes) {
  std::string text = read_text(std::string(KSCOPE_FIXTURES_DIR) + "/golden/vadd_results.json");
  const auto swap = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  swap("\"name\": \"vadd\"", "\"name\" :\t\"v\\u00e9\\ud83d\\ude00\\/\\b\\f\\n\\r\\t\\\"\"");
  swap("\"values\": [\n    1024,", "\"values\": [ 1.0e3 ,");
  swap("\"f32\"", "[1, {\"a\": null, \"b\": [true, false]}, -0, 18446744073709551616]");
  swap("\"id\": 0", "\"id\": 0, \"unknown\": {\"x\": [1, 2.5e-3, \"\\u0000\"]}");
  const std::string path = temp_path("escapes");
  write_text(path, text);
  expect_read_alike(path);
  const Results r = Results::load(path);
  EXPECT_EQ(r.name(), "v\xC3\xA9\xF0\x9F\x98\x80/\b\f\n\r\t\"");
  EXPECT_EQ(r.configs().at(0)[0].get<double>(), 1000.0);
  EXPECT_EQ(r.configs().at(0)[1].get<std::string>(), "[1,{\"a\":null,\"b\":[true,false]},0,1.8446744073709552e+19]");
}

TEST(ResultReaderTest, DeclinesWhatIsNotAResultInKscopesLayoutAndLoadReadsItAsATree) {
  const std::string good = read_text(std::string(KSCOPE_FIXTURES_DIR) + "/golden/vadd_results.json");
  struct Case {
    const char* name;
    std::string from;
    std::string to;
    bool loads;  // the tree reads it (a layout the streamed reader does not take)
  };
  const std::vector<Case> cases = {
      {"a duplicate key", "\"id\": 0", "\"id\": 0, \"id\": 1", true},
      {"a duplicate member of a row", "\"run\": 0", "\"run\": 0, \"run\": 1", true},
      {"a header member after the configs", "\"raw\": [", "\"complete\": true, \"raw\": [", true},
      {"an escaped key", "\"id\": 0", "\"i\\u0064\": 0", true},
      {"a byte order mark", "{\n \"schema_version\"", "\xEF\xBB\xBF{\n \"schema_version\"", true},
      {"a number beyond a double", "\"id\": 0", "\"id\": 0, \"x\": 1e400", false},
      {"an underflowing number", "\"id\": 0", "\"id\": 0, \"x\": 1e-400", true},
      {"a syntax error", "\"id\": 0", "\"id\": 0,", false},
      {"text after the document", "", "", false},
      {"a bad UTF-8 byte", "\"vadd\"", "\"va\xFF\"", false},
      {"a DEL byte", "\"vadd\"", "\"va\x7F\"", false},
      {"a form feed", "\"id\": 0", "\"id\":\f0", false},
      {"a lone surrogate", "\"vadd\"", "\"\\ud83d\"", false},
      {"a bad escape", "\"vadd\"", "\"\\x41\"", false},
      {"a leading zero", "\"id\": 0", "\"id\": 01", false},
      {"a row that is no object", "\"raw\": [", "\"raw\": [1,", false},
      {"a config index out of range", "\"config\": 1,", "\"config\": 9,", false},
      {"no raw table", "\"raw\": [", "\"raw_\": [", false},
      {"a wrong kind", "\"kscope.results\"", "\"kscope.other\"", false},
      {"a cut file", "", "", false},
  };
  for (const auto& c : cases) {
    std::string text = good;
    if (std::string(c.name) == "text after the document") {
      text += "{}";
    } else if (std::string(c.name) == "a cut file") {
      text.resize(text.size() / 2);
    } else {
      const auto at = text.find(c.from);
      ASSERT_NE(at, std::string::npos) << c.name;
      text.replace(at, c.from.size(), c.to);
    }
    const std::string path = temp_path("declines");
    write_text(path, text);
    EXPECT_FALSE(report::read_result_streamed(path, {}).has_value()) << c.name;
    if (c.loads) {
      EXPECT_EQ(Results::load(path).to_json(), Results(report::read_result_tree(path)).to_json()) << c.name;
    } else {
      EXPECT_THROW((void)Results::load(path), FileFormatError) << c.name;
    }
  }
  EXPECT_FALSE(report::read_result_streamed(temp_path("no_such_file"), {}).has_value());
}

TEST(ResultReaderTest, SkipsTheTablesNotAsked) {
  const std::string path = temp_path("tables");
  const Results full = full_result();
  full.write_json(path);
  report::ResultTables processed_only;
  processed_only.raw = processed_only.telemetry = processed_only.timeline = false;
  const auto some = report::read_result_streamed(path, processed_only);
  ASSERT_TRUE(some.has_value());
  EXPECT_TRUE(some->raw.empty());
  EXPECT_TRUE(some->telemetry.empty());
  EXPECT_TRUE(some->timeline.empty());
  EXPECT_EQ(Results(*some).processed().size(), full.processed().size());
  EXPECT_EQ(some->findings.size(), 1U);
  EXPECT_EQ(some->failures.size(), 1U);
  EXPECT_EQ(some->stops.size(), 2U);
  EXPECT_EQ(some->configs.size(), full.configs().size());
  EXPECT_EQ(Results(*some).processed().at(0).annotation, full.processed().at(0).annotation);
  for (bool timeline : {false, true}) {  // the timeline skipped, then the raw rows and telemetry
    report::ResultTables tables;
    tables.timeline = timeline;
    tables.raw = tables.telemetry = !timeline;
    const auto part = report::read_result_streamed(path, tables);
    ASSERT_TRUE(part.has_value());
    EXPECT_EQ(part->timeline.phases.size(), timeline ? full.timeline().phases.size() : 0U);
    EXPECT_EQ(part->raw.size(), timeline ? 0U : full.raw().size());
    EXPECT_EQ(part->processed.size(), full.processed().size());
  }
  // A table not read is not checked either.
  std::string text = read_text(path);
  const auto at = text.find("\"start_ns\": 100");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 15, "\"start_ns\": \"x\"");
  write_text(path, text);
  EXPECT_TRUE(report::read_result_streamed(path, processed_only).has_value());
  EXPECT_FALSE(report::read_result_streamed(path, {}).has_value());
  EXPECT_THROW((void)Results::load(path), FileFormatError);
}

TEST(JsonTapeTest, ParsesValuesAsNlohmannDoes) {
  report::JsonTape tape;
  for (const char* text : {"0", "-0", "1.5e3", "18446744073709551615", "18446744073709551616",
                           "-9223372036854775808", "-9223372036854775809", "\"\\u00e9\"", "[]",
                           "{}", " [1, [2, [3]], {\"a\": {}}] ", "null", "true", "false"}) {
    ASSERT_TRUE(tape.parse(text)) << text;
    EXPECT_EQ(report::TapeField(tape, 0).tree(), report::Json::parse(text)) << text;
  }
  for (const char* text : {"", "01", "1.", ".5", "+1", "-", "1e", "[1,]", "{\"a\"}", "{\"a\":1,}",
                           "tru", "\"a", "[1 2]", "{\"a\":1 \"b\":2}", "nul", "\"\\u12\"", "1 2"}) {
    EXPECT_FALSE(tape.parse(text)) << text;
  }
  ASSERT_TRUE(tape.parse("{\"a\": 1, \"b\": {\"c\": [true, null]}, \"d\": \"x\"}"));
  const report::TapeField root(tape, 0);
  EXPECT_EQ(root.at("d").get<std::string>(), "x");  // out of order
  EXPECT_EQ(root.at("a").get<int>(), 1);
  EXPECT_EQ(root.at("b").at("c").element(0).get<bool>(), true);
  EXPECT_FALSE(root.find("b")->find("c")->element(1).is_boolean());
  EXPECT_FALSE(root.find("e").has_value());
  EXPECT_THROW((void)root.at("e"), report::TapeMiss);
  EXPECT_THROW((void)root.at("d").get<int>(), report::TapeMiss);
  EXPECT_THROW((void)root.at("a").get<std::string>(), report::TapeMiss);
}

}  // namespace
}  // namespace kscope
