// CSV, JSON and console output against golden files. Set KSCOPE_UPDATE_GOLDEN=1 to rewrite the
// goldens after an intended format change (and review the diff).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "golden.hpp"
#include "kscope/errors.hpp"
#include "report/csv_writer.hpp"
#include "sample_results.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

using testing::expect_golden;
using testing::read_file;

TEST(FormatsTest, RawCsvMatchesGolden) {
  std::ostringstream out;
  report::write_raw_csv(testing::sample_results(false), out);
  expect_golden("vadd_raw.csv", out.str());
}

TEST(FormatsTest, ProcessedCsvMatchesGolden) {
  std::ostringstream out;
  report::write_processed_csv(testing::sample_results(false), out);
  expect_golden("vadd_processed.csv", out.str());
}

TEST(FormatsTest, NormalisedProcessedCsvHasNormalizationValueColumn) {
  std::ostringstream out;
  report::write_processed_csv(testing::sample_results(true), out);
  expect_golden("vadd_processed_normalized.csv", out.str());
  EXPECT_NE(out.str().find(",Normalized,NormalizationValue,Geomean\n"), std::string::npos);
}

TEST(FormatsTest, JsonMatchesGolden) {
  expect_golden("vadd_results.json", testing::sample_results(true).to_json() + "\n");
}

TEST(FormatsTest, TableMatchesGolden) {
  std::ostringstream out;
  testing::sample_results(false).print(out);
  expect_golden("vadd_table.txt", out.str());
}

TEST(FormatsTest, CsvFieldQuoting) {
  EXPECT_EQ(report::csv_field("plain"), "plain");
  EXPECT_EQ(report::csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(report::csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(FormatsTest, JsonRoundTripKeepsEverything) {
  const Results original = testing::sample_results(true);
  const std::string dir = testing::scratch_dir("json_round_trip");
  original.write_json(dir + "r.json");
  const Results loaded = Results::load(dir + "r.json");
  EXPECT_EQ(loaded.name(), "vadd");
  EXPECT_EQ(loaded.parameters(), original.parameters());
  ASSERT_EQ(loaded.configs().size(), 2u);
  EXPECT_TRUE(loaded.configs()[1][0].is_int());
  EXPECT_EQ(loaded.configs()[1].get<std::string>("dtype"), "f16, packed");
  ASSERT_EQ(loaded.raw().size(), original.raw().size());
  ASSERT_EQ(loaded.processed().size(), original.processed().size());
  for (std::size_t i = 0; i < loaded.processed().size(); ++i) {
    const auto& a = loaded.processed()[i];
    const auto& b = original.processed()[i];
    EXPECT_EQ(a.annotation, b.annotation);
    EXPECT_EQ(a.metric, b.metric);
    EXPECT_EQ(a.unit, b.unit);
    EXPECT_EQ(a.num_runs, b.num_runs);
    EXPECT_EQ(a.stable, b.stable);
    EXPECT_EQ(a.normalized, b.normalized);
    EXPECT_TRUE(a.avg == b.avg || (std::isnan(a.avg) && std::isnan(b.avg)));
    EXPECT_TRUE(a.stddev == b.stddev || (std::isnan(a.stddev) && std::isnan(b.stddev)));
  }
  EXPECT_EQ(loaded.metadata().gpu, "NVIDIA H200");
  EXPECT_EQ(loaded.options().normalize_against, "baseline");
  EXPECT_EQ(loaded.options().runs, 3);
}

// Which definition made the durations travels with the result: written, loaded, and shown in the
// table's title line; a result without one (a file written before it was recorded) has no key.
TEST(FormatsTest, TheDurationDefinitionIsWrittenLoadedAndShown) {
  const std::string dir = testing::scratch_dir("formats_duration_definition");
  Results::Data d = testing::sample_results(false).data();
  EXPECT_EQ(Results(d).to_json().find("duration_definition"), std::string::npos);
  d.metadata.duration_definition = "ncu import";
  const Results r(d);
  EXPECT_NE(r.to_json().find("\"duration_definition\": \"ncu import\""), std::string::npos);
  r.write_json(dir + "r.json");
  EXPECT_EQ(Results::load(dir + "r.json").metadata().duration_definition, "ncu import");
  std::ostringstream out;
  r.print(out);
  EXPECT_EQ(out.str().substr(0, out.str().find('\n')),
            "kscope results: vadd #0 | NVIDIA H200 | gpu-host | tool cupti | durations ncu import");
  std::ostringstream md;
  r.write("md", md);
  EXPECT_NE(md.str().find("| Durations | ncu import |"), std::string::npos) << md.str();
}

// The grouped options (Options::adaptive, sanitizer, thermal) are written and read under their
// flat keys, so that files written before the grouping load and the goldens stay as they are.
TEST(FormatsTest, GroupedOptionsKeepTheirFlatKeys) {
  Results::Data d = testing::sample_results(false).data();
  d.options.adaptive = {true, 0.02, 7, 70, 2.5};
  d.options.sanitizer = {{"racecheck", "memcheck"}, true, 17};
  d.options.thermal = {"manual", 11, 31, 90, 1};
  const std::string json = Results(d).to_json();
  for (const char* entry :
       {"\"auto_runs\": true", "\"target_rel_ci\": 0.02", "\"min_runs\": 7", "\"max_runs\": 70",
        "\"time_budget\": 2.5", "\"sanitizer_leak_check\": true", "\"sanitizer_print_limit\": 17",
        "\"thermal_mode\": \"manual\"", "\"thermal_wait\": 11", "\"thermal_cont\": 31",
        "\"thermal_timeout\": 90", "\"thermal_device\": 1"}) {
    EXPECT_NE(json.find(entry), std::string::npos) << entry;
  }
  EXPECT_NE(json.find("\"sanitizer_checks\": ["), std::string::npos);
  EXPECT_EQ(json.find("\"adaptive\""), std::string::npos);
  EXPECT_EQ(json.find("\"thermal\""), std::string::npos);

  const std::string dir = testing::scratch_dir("grouped_options");
  Results(d).write_json(dir + "r.json");
  const Options back = Results::load(dir + "r.json").options();
  EXPECT_TRUE(back.adaptive.enabled);
  EXPECT_EQ(back.adaptive.target_rel_ci, 0.02);
  EXPECT_EQ(back.adaptive.min_runs, 7);
  EXPECT_EQ(back.adaptive.max_runs, 70);
  EXPECT_EQ(back.adaptive.time_budget, 2.5);
  EXPECT_EQ(back.sanitizer.checks, (std::vector<std::string>{"racecheck", "memcheck"}));
  EXPECT_TRUE(back.sanitizer.leak_check);
  EXPECT_EQ(back.sanitizer.print_limit, 17);
  EXPECT_EQ(back.thermal.mode, "manual");
  EXPECT_EQ(back.thermal.wait, 11);
  EXPECT_EQ(back.thermal.cont, 31);
  EXPECT_EQ(back.thermal.timeout, 90);
  EXPECT_EQ(back.thermal.device, 1);
}

TEST(FormatsTest, WriteCsvUsesNsightFileNames) {
  const std::string dir = testing::scratch_dir("csv_names");
  const auto paths = testing::sample_results(false).write_csv(dir + "test_");
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0], dir + "test_profiled_data-vadd-0.csv");
  EXPECT_EQ(paths[1], dir + "test_processed_data-vadd-0.csv");
  EXPECT_FALSE(read_file(paths[1]).empty());
}

TEST(FormatsTest, LoadErrorsNameThePathAndReason) {
  const std::string dir = testing::scratch_dir("load_errors");
  std::ofstream(dir + "bad.json") << "{ not json";
  std::ofstream(dir + "other.json") << "{\"kind\": \"something\"}";
  try {
    (void)Results::load(dir + "bad.json");
    FAIL();
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json' is not valid JSON"), std::string::npos) << e.what();
  }
  try {
    (void)Results::load(dir + "other.json");
    FAIL();
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("is not a kscope result file (expected a JSON object "
                                         "whose kind is \"kscope.results\", found \"something\")"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)Results::load(dir + "missing.json"), Error);
}

// A name that is not UTF-8 from the C++ API (names from files are escaped when read) is written
// with U+FFFD instead of aborting the writer (nlohmann's type_error.316).
TEST(FormatsTest, NamesThatAreNotUtf8AreWrittenWithReplacementCharacters) {
  Results::Data d = testing::sample_results(false).data();
  d.processed.at(0).annotation = "vadd\xFF";
  d.raw.at(0).annotation = "vadd\xFF";
  const std::string json = Results(d).to_json();
  EXPECT_NE(json.find("\"vadd\xEF\xBF\xBD\""), std::string::npos);
  const std::string path = testing::scratch_dir("formats_utf8") + "r.json";
  Results(d).write_json(path);
  EXPECT_EQ(Results::load(path).processed().at(0).annotation, "vadd\xEF\xBF\xBD");
}

}  // namespace
}  // namespace kscope
