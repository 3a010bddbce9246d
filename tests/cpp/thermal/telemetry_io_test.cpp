// Telemetry in the outputs: JSON round trip keeps every reading (and its age), the journal
// carries it and loads back with the processed columns, the processed CSV has the new columns
// after Unit, and files written before telemetry (or the readings' age) existed still load.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "../core/records.hpp"
#include "core/telemetry_summary.hpp"
#include "report/csv_writer.hpp"
#include "report/journal.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

RunTelemetry reading(std::size_t config, std::size_t run, int sm_after, std::uint64_t reasons_after) {
  RunTelemetry t;
  t.config = config;
  t.run = run;
  t.device = 1;
  TelemetrySample before;
  before.sm_clock_mhz = 345;
  before.memory_clock_mhz = 3201;
  before.temperature_c = 35;
  before.headroom_c = 52;
  before.power_w = 78.16;
  before.clock_event_reasons = 0x1;
  before.age_ms = 12.345;
  TelemetrySample after = before;
  after.sm_clock_mhz = sm_after;
  after.temperature_c = 61;
  after.headroom_c = 26;
  after.power_w = 612.5;
  after.clock_event_reasons = reasons_after;
  after.age_ms = 0.25;
  t.before = before;
  t.after = after;
  t.cooling_wait_s = 2.5;
  return t;
}

Results::Data data_with_telemetry() {
  Results::Data d;
  d.name = "heavy";
  d.configs = configs({10, 20}, "n");
  d.parameters = {"n"};
  d.metadata.gpu = "NVIDIA H200";
  d.raw = {};
  ProcessedRow p;
  p.annotation = "a";
  p.metric = kTimeMetric;
  p.unit = "ns";
  d.processed = {p};
  d.telemetry = {reading(0, 0, 1980, 0x0), reading(0, 1, 1755, 0x4)};
  // A GPU that reports little, and a run whose "after" reading is missing.
  RunTelemetry sparse;
  sparse.config = 1;
  sparse.before = TelemetrySample{};
  sparse.before->clock_event_reasons = 0x1ffULL << 40;  // large bitmasks survive
  d.telemetry.push_back(sparse);
  add_telemetry_columns(d.processed, summarize_telemetry(d.telemetry));
  return d;
}

void expect_same(const std::optional<TelemetrySample>& a, const std::optional<TelemetrySample>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_EQ(a->sm_clock_mhz, b->sm_clock_mhz);
  EXPECT_EQ(a->memory_clock_mhz, b->memory_clock_mhz);
  EXPECT_EQ(a->temperature_c, b->temperature_c);
  EXPECT_EQ(a->headroom_c, b->headroom_c);
  EXPECT_EQ(a->power_w, b->power_w);
  EXPECT_EQ(a->clock_event_reasons, b->clock_event_reasons);
  EXPECT_EQ(a->age_ms, b->age_ms);
}

void expect_same(const std::vector<RunTelemetry>& a, const std::vector<RunTelemetry>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].config, b[i].config);
    EXPECT_EQ(a[i].run, b[i].run);
    EXPECT_EQ(a[i].device, b[i].device);
    EXPECT_EQ(a[i].cooling_wait_s, b[i].cooling_wait_s);
    expect_same(a[i].before, b[i].before);
    expect_same(a[i].after, b[i].after);
  }
}

TEST(TelemetryIoTest, JsonRoundTripKeepsEveryReading) {
  const Results original(data_with_telemetry());
  const std::string dir = testing::scratch_dir("telemetry_json");
  original.write_json(dir + "r.json");
  const Results loaded = Results::load(dir + "r.json");
  expect_same(loaded.telemetry(), original.telemetry());
  ASSERT_EQ(loaded.processed().size(), 1u);
  const ProcessedRow& p = loaded.processed()[0];
  EXPECT_DOUBLE_EQ(p.clock_mhz_min, 1755);
  EXPECT_DOUBLE_EQ(p.temp_c_max, 61);
  EXPECT_DOUBLE_EQ(p.power_w_avg, 612.5);
  EXPECT_DOUBLE_EQ(p.throttled, 0.5);
}

TEST(TelemetryIoTest, JsonNamesTheFields) {
  const std::string json = Results(data_with_telemetry()).to_json();
  for (const char* key : {"\"telemetry\"", "\"sm_clock_mhz\": 1755", "\"memory_clock_mhz\": 3201",
                          "\"temperature_c\": 61", "\"headroom_c\": 26", "\"power_w\": 612.5",
                          "\"clock_event_reasons\": 4", "\"age_ms\": 0.25", "\"age_ms\": 12.345",
                          "\"age_ms\": null", "\"cooling_wait_s\": 2.5", "\"after\": null",
                          "\"ClockMHz_Min\": 1755.0", "\"Throttled\": 0.5"}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
}

TEST(TelemetryIoTest, ResultsWrittenBeforeTelemetryStillLoad) {
  const std::string dir = testing::scratch_dir("telemetry_old_json");
  std::ofstream(dir + "old.json")
      << R"({"schema_version": "1.0", "kind": "kscope.results", "name": "old",
             "configs": [{"values": []}],
             "raw": [], "processed": [{"Annotation": "a", "Metric": "m", "config": 0,
             "AvgValue": 1, "StdDev": null, "MinValue": 1, "MaxValue": 1, "NumRuns": 1,
             "CI95_Lower": null, "CI95_Upper": null, "RelativeStdDevPct": null,
             "StableMeasurement": null, "Normalized": false, "Geomean": 1}]})";
  const Results r = Results::load(dir + "old.json");
  EXPECT_TRUE(r.telemetry().empty());
  ASSERT_EQ(r.processed().size(), 1u);
  EXPECT_TRUE(std::isnan(r.processed()[0].clock_mhz_min));
  EXPECT_TRUE(std::isnan(r.processed()[0].throttled));
}

TEST(TelemetryIoTest, ReadingsWrittenBeforeTheirAgeWasRecordedLoadWithoutIt) {
  const std::string dir = testing::scratch_dir("telemetry_no_age");
  std::ofstream(dir + "old.json")
      << R"({"schema_version": "1.0", "kind": "kscope.results", "name": "old", "configs": [],
             "raw": [], "processed": [], "telemetry": [{"config": 0, "run": 0, "device": 0,
             "cooling_wait_s": 0.0, "before": {"sm_clock_mhz": 1980, "power_w": 512.3},
             "after": null}]})";
  const Results r = Results::load(dir + "old.json");
  ASSERT_EQ(r.telemetry().size(), 1u);
  ASSERT_TRUE(r.telemetry()[0].before);
  EXPECT_EQ(r.telemetry()[0].before->sm_clock_mhz, 1980);
  EXPECT_FALSE(r.telemetry()[0].before->age_ms);
}

TEST(TelemetryIoTest, JournalCarriesTelemetryAndLoadsItBack) {
  const std::string path = testing::scratch_dir("telemetry_journal") + "journal-heavy-0.jsonl";
  std::vector<RunTelemetry> recorded = {reading(0, 0, 1980, 0x0), reading(0, 1, 1900, 0x20),
                                        reading(1, 0, 1700, 0x4)};
  {
    Results::Data header = data_with_telemetry();
    header.options.runs = 2;
    report::JournalWriter w(path, header);
    std::size_t next = 0;
    w.set_telemetry_source([&] {
      // What was recorded since the last line: two runs, then one.
      const std::size_t n = next == 0 ? 2 : 1;
      std::vector<RunTelemetry> out(recorded.begin() + next, recorded.begin() + next + n);
      next += n;
      return out;
    });
    w.append({testing::run_log(0, 0, {"a"}), testing::run_log(0, 1, {"a"})},
             {testing::kernel("a", "k", 0, 0, 100), testing::kernel("a", "k", 0, 1, 110)});
    w.append({testing::run_log(1, 0, {"a"})}, {testing::kernel("a", "k", 1, 0, 200)});
    w.close("");
  }
  std::ifstream in(path);
  std::string first, names, runs;
  std::getline(in, first);
  std::getline(in, names);  // the names the first runs line uses
  std::getline(in, runs);
  EXPECT_NE(runs.find("\"telemetry\":[[0,0,1,[345,3201,35,52,78.16,1,12.345],[1980,3201,61,26,"
                      "612.5,0,0.25],2.5],"),
            std::string::npos)
      << runs;

  const Results r = Results::load(path);
  expect_same(r.telemetry(), recorded);
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_DOUBLE_EQ(r.processed()[0].clock_mhz_min, 1900);
  EXPECT_DOUBLE_EQ(r.processed()[0].throttled, 0.5);
  EXPECT_DOUBLE_EQ(r.processed()[1].throttled, 1.0);
  EXPECT_DOUBLE_EQ(r.processed()[1].power_w_avg, 612.5);
}

// Readings the GPU could not give (none before the run, fields NVML lacks after it) come back
// from the journal's arrays as absent, not as zeros.
TEST(TelemetryIoTest, AJournalKeepsMissingReadingsMissing) {
  const std::string path = testing::scratch_dir("telemetry_missing") + "journal-heavy-0.jsonl";
  RunTelemetry partial = reading(0, 0, 1980, 0x0);
  partial.before.reset();
  partial.after->power_w.reset();
  partial.after->headroom_c.reset();
  partial.after->age_ms.reset();
  {
    Results::Data header = data_with_telemetry();
    report::JournalWriter w(path, header);
    w.append({testing::run_log(0, 0, {"a"})}, {testing::kernel("a", "k", 0, 0, 100)},
             std::vector<RunTelemetry>{partial});
    w.close("");
  }
  expect_same(report::read_journal(path).telemetry, {partial});
}

TEST(TelemetryIoTest, ProcessedCsvHasTheColumnsAfterUnit) {
  std::ostringstream out;
  report::write_processed_csv(Results(data_with_telemetry()), out);
  const std::string csv = out.str();
  EXPECT_NE(csv.find(",MemoryClock,Unit,ClockMHz_Min,TempC_Max,PowerW_Avg,Throttled,Median,Q1,Q3,CI95_Lower,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",ns,1755.0,61.0,612.5,0.5,"), std::string::npos) << csv;
}

TEST(TelemetryIoTest, TableShowsThrottledOnlyWhenTheGpuSlowedDown) {
  std::ostringstream throttled;
  Results(data_with_telemetry()).print(throttled);
  EXPECT_NE(throttled.str().find("Throttled"), std::string::npos);
  EXPECT_NE(throttled.str().find("50%"), std::string::npos) << throttled.str();

  Results::Data cool = data_with_telemetry();
  cool.processed[0].throttled = 0;
  std::ostringstream plain;
  Results(cool).print(plain);
  EXPECT_EQ(plain.str().find("Throttled"), std::string::npos);
}

}  // namespace
}  // namespace kscope
