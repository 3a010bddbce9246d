// The info collectors' columns in the file formats: CSV placement (raw: after Unit, before the
// parameters; processed: after the telemetry columns, before CI95_Lower), the JSON result and
// the journal, each read back. The golden files are also read by tests/python/test_info_collectors.py.
// Set KSCOPE_UPDATE_GOLDEN=1 to rewrite them after an intended change.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "golden.hpp"
#include "report/csv_writer.hpp"
#include "report/journal.hpp"
#include "support/info_sample.hpp"

namespace kscope {
namespace {

using testing::expect_golden;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(InfoColumnsFormatTest, RawCsvPutsCollectorsAfterUnitBeforeParameters) {
  std::ostringstream out;
  report::write_raw_csv(testing::info_sample_results(), out);
  EXPECT_EQ(first_line(out.str()),
            "Annotation,Value,Metric,Kernel,GPU,Host,ComputeClock,MemoryClock,Unit,o,c,r,a,s,n");
  expect_golden("info_collectors_raw.csv", out.str());
}

TEST(InfoColumnsFormatTest, ProcessedCsvPutsCollectorsAfterTelemetryBeforeCi) {
  std::ostringstream out;
  report::write_processed_csv(testing::info_sample_results(), out);
  EXPECT_EQ(first_line(out.str()),
            "Annotation,Metric,n,AvgValue,StdDev,MinValue,MaxValue,NumRuns,Kernel,GPU,Host,"
            "ComputeClock,MemoryClock,Unit,ClockMHz_Min,TempC_Max,PowerW_Avg,Throttled,Median,Q1,Q3,o,c_Avg,"
            "c_Std,c_Min,c_Max,r_Avg,r_Std,r_Min,r_Max,a_Avg,a_Std,a_Min,a_Max,s,CI95_Lower,"
            "CI95_Upper,RelativeStdDevPct,StableMeasurement,Normalized,Geomean");
  // add, config 0: once v1; c 1024 (std 0); r 0/10/20; a 1/3/5; s add_512.
  EXPECT_NE(out.str().find(",v1,1024.0,0.0,1024.0,1024.0,10.0,10.0,0.0,20.0,3.0,2.0,1.0,5.0,add_512,"),
            std::string::npos)
      << out.str();
  expect_golden("info_collectors_processed.csv", out.str());
}

TEST(InfoColumnsFormatTest, JsonRoundTrip) {
  const Results original = testing::info_sample_results();
  expect_golden("info_collectors_results.json", original.to_json() + "\n");
  const std::string dir = testing::scratch_dir("info_json");
  original.write_json(dir + "r.json");
  const Results loaded = Results::load(dir + "r.json");
  ASSERT_EQ(loaded.info_columns().size(), 5u);
  EXPECT_EQ(loaded.info_columns()[3].name, "a");
  EXPECT_EQ(loaded.info_columns()[3].scope, CollectionScope::kAnnotation);
  EXPECT_TRUE(loaded.info_columns()[3].aggregated);
  EXPECT_FALSE(loaded.info_columns()[4].aggregated);
  ASSERT_EQ(loaded.raw().size(), original.raw().size());
  for (std::size_t i = 0; i < loaded.raw().size(); ++i) {
    EXPECT_EQ(loaded.raw()[i].info, original.raw()[i].info) << i;
  }
  ASSERT_EQ(loaded.processed().size(), original.processed().size());
  for (std::size_t i = 0; i < loaded.processed().size(); ++i) {
    EXPECT_EQ(loaded.processed()[i].info, original.processed()[i].info) << i;
  }
  // Options keep the collectors' names and scopes (not their callbacks).
  ASSERT_EQ(loaded.options().info_collectors.size(), 5u);
  EXPECT_EQ(loaded.options().info_collectors[2].name, "r");
  EXPECT_EQ(loaded.options().info_collectors[2].scope, CollectionScope::kRun);
  EXPECT_FALSE(loaded.options().info_collectors[2].callback);
}

TEST(InfoColumnsFormatTest, UnknownScopeInAFileIsAnError) {
  std::string json = testing::info_sample_results().to_json();
  const std::string from = "\"scope\": \"run\"";
  json.replace(json.find(from), from.size(), "\"scope\": \"always\"");
  const std::string path = testing::scratch_dir("info_bad_scope") + "r.json";
  std::ofstream(path) << json;
  try {
    (void)Results::load(path);
    FAIL() << "no error";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("scope: expected an info collector scope: \"once\", "
                                         "\"config\", \"run\" or \"annotation\", found \"always\""),
              std::string::npos)
        << e.what();
  }
}

TEST(InfoColumnsFormatTest, ResultsWithoutCollectorsHaveNoInfoKeys) {
  Results::Data d;
  d.name = "plain";
  d.configs = configs({1});
  d.raw.resize(1);
  d.processed.resize(1);
  const std::string json = Results(std::move(d)).to_json();
  EXPECT_EQ(json.find("info"), std::string::npos);
}

TEST(InfoColumnsFormatTest, JournalKeepsTheCollectedValues) {
  testing::InfoSample s = testing::info_sample(false);
  Results::Data header;
  header.name = "info";
  header.options.runs = 3;
  header.options.info_collectors = s.collectors;
  header.configs = s.configs;
  header.parameters = {"n"};
  std::vector<KernelRecord> records;
  std::uint64_t sequence = 0;
  for (const auto& log : s.runs) {
    for (const auto& a : log.entered) {
      KernelRecord k;
      k.annotation = a;
      k.kernel = a + "_kernel";
      k.run = log.run;
      k.sequence = ++sequence;
      k.metrics = {{kTimeMetric, 100.0 * static_cast<double>(log.run.config + 1) +
                                     static_cast<double>(log.run.run),
                    std::string("ns")}};
      records.push_back(k);
    }
  }
  const std::string path = testing::scratch_dir("info_journal") + "journal.jsonl";
  {
    report::JournalWriter journal(path, header);
    journal.append(s.runs, records);
    journal.close("");
  }
  const Results loaded = Results::load(path);
  ASSERT_EQ(loaded.info_columns().size(), 5u);
  ASSERT_EQ(loaded.raw().size(), s.raw.size());
  for (std::size_t i = 0; i < s.raw.size(); ++i) EXPECT_EQ(loaded.raw()[i].info, s.raw[i].info) << i;
  ASSERT_EQ(loaded.processed().size(), s.processed.size());
  for (std::size_t i = 0; i < s.processed.size(); ++i) {
    EXPECT_EQ(loaded.processed()[i].info, s.processed[i].info) << i;
  }
}

}  // namespace
}  // namespace kscope
