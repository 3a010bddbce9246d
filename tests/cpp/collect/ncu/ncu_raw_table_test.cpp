// ncu's raw page on every fixture, and on malformed input (which must be a clear kscope::Error).
#include "collect/ncu/ncu_raw_table.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "kscope/errors.hpp"
#include "ncu_test_support.hpp"

namespace kscope::ncu {
namespace {

using testing::fixture_text;

NcuRawTable table(const std::string& fixture) {
  return NcuRawTable::parse(fixture_text("ncu/" + fixture), fixture);
}

double value(const NcuRawTable& t, std::size_t result, const std::string& column) {
  return t.number(t.results().at(result), static_cast<std::size_t>(t.find_column(column)));
}

std::string error_of(const std::string& text) {
  try {
    (void)NcuRawTable::parse(text, "bad.csv");
  } catch (const FileFormatError& e) {
    return e.what();
  }
  return "no error";
}

TEST(NcuRawTableTest, VaddFixture) {
  const auto t = table("vadd_raw_nvtx.csv");
  ASSERT_EQ(t.results().size(), 3u);
  const auto& r0 = t.results()[0];
  EXPECT_EQ(r0.id, 0);
  EXPECT_EQ(r0.kernel, "vadd(const float *, const float *, float *, int)");
  EXPECT_EQ(r0.device, 0);
  EXPECT_EQ(r0.host, "127.0.0.1");
  ASSERT_EQ(r0.push_pop.size(), 1u);
  EXPECT_EQ(r0.push_pop[0].domain, "probe");
  EXPECT_EQ(r0.push_pop[0].name, "vadd");
  EXPECT_TRUE(r0.start_end.empty());
  EXPECT_EQ(value(t, 0, "gpu__time_duration.sum"), 60832.0);  // "60,832"
  EXPECT_EQ(value(t, 1, "gpu__time_duration.sum"), 59200.0);
  EXPECT_EQ(value(t, 0, "launch__thread_count"), 16777216.0);  // "16,777,216"
  EXPECT_EQ(t.unit(static_cast<std::size_t>(t.find_column("gpu__time_duration.sum"))), "ns");
  EXPECT_EQ(t.unit(static_cast<std::size_t>(t.find_column("launch__grid_size"))), "");
  EXPECT_EQ(t.text(r0, "device__attribute_display_name"), "NVIDIA H200");
  EXPECT_EQ(t.metric_columns().front(), "c2clink__enabled_mask");
  EXPECT_EQ(t.find_column("no_such_metric"), -1);
}

TEST(NcuRawTableTest, NestedFixtureWithToolLinesOnTop) {
  const auto t = table("nvtx_nested_raw_stdout.csv");
  ASSERT_EQ(t.results().size(), 5u);
  const std::vector<std::string> kernels = {"kA(float *)", "kB(float *)", "kC(float *)",
                                            "kD(float *)", "kE(float *)"};
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(t.results()[i].kernel, kernels[i]);
  EXPECT_EQ(t.results()[1].push_pop.size(), 2u);          // outer/inner
  EXPECT_EQ(t.results()[3].push_pop[0].domain, "<default domain>");
  EXPECT_TRUE(t.results()[4].push_pop.empty());
  ASSERT_EQ(t.results()[4].start_end.size(), 1u);         // bench@se
  EXPECT_EQ(t.results()[4].start_end[0].name, "se");
  EXPECT_EQ(value(t, 0, "dram__bytes_read.sum"), 4096.0);
  EXPECT_EQ(value(t, 0, "dram__bytes_read.avg"), 85.33);
  EXPECT_EQ(t.unit(static_cast<std::size_t>(t.find_column("dram__bytes_read.sum"))), "byte");
}

TEST(NcuRawTableTest, SyntheticKscopeSweeps) {
  const auto t = table("kscope_sweep_payload.csv");
  ASSERT_EQ(t.results().size(), 12u);
  EXPECT_EQ(t.results()[2].start_end[0].domain, "kscope");
  EXPECT_TRUE(t.results()[2].start_end[0].payload.has_value());
  EXPECT_FALSE(t.results()[0].start_end[0].payload.has_value());  // warm-up
  EXPECT_EQ(value(t, 3, "gpu__time_duration.sum"), 10001.0);

  const auto range = table("kscope_range_replay.csv");
  ASSERT_EQ(range.results().size(), 12u);
  EXPECT_EQ(range.results()[0].kernel, "range");
  EXPECT_EQ(range.find_column("Block Size"), -1);
  EXPECT_EQ(range.metric_columns().front(), "c2clink__enabled_mask");
}

std::size_t column(const NcuRawTable& t, const std::string& name) {
  return static_cast<std::size_t>(t.find_column(name));
}

TEST(NcuRawTableTest, AutoScaledUnitsAreReadInBaseUnits) {
  // What `ncu --import` printed on the GPU machine without --print-units base: "us", "Mbyte".
  const auto t = table("kscope_sweep_auto_units.csv");
  const auto base = table("kscope_sweep_payload.csv");
  ASSERT_EQ(t.results().size(), base.results().size());
  for (const char* m : {"gpu__time_duration.sum", "gpu__time_duration.min",
                        "launch__thread_count"}) {
    EXPECT_EQ(t.unit(column(t, m)), base.unit(column(base, m))) << m;
    for (std::size_t r = 0; r < t.results().size(); ++r) {
      // The printed digits hold the whole value here ("10.001" us); only rounding differs.
      EXPECT_NEAR(value(t, r, m), value(base, r, m), 1e-9 * value(base, r, m)) << m << " " << r;
    }
  }
  EXPECT_EQ(t.printed_unit(column(t, "gpu__time_duration.sum")), "us");
  EXPECT_EQ(t.unit(column(t, "gpu__time_duration.sum")), "ns");
  // Sizes keep only the printed digits: 11,796,480 bytes shown as "11.80" Mbyte.
  EXPECT_EQ(t.printed_unit(column(t, "launch__persisting_l2_cache_size")), "Mbyte");
  EXPECT_EQ(t.unit(column(t, "launch__persisting_l2_cache_size")), "byte");
  EXPECT_DOUBLE_EQ(value(t, 0, "launch__persisting_l2_cache_size"), 11.8e6);
  EXPECT_DOUBLE_EQ(value(t, 0, "launch__shared_mem_config_size"), 32770.0);  // "32.77" Kbyte
}

TEST(NcuRawTableTest, UnknownScaleIsAnErrorNotAWrongNumber) {
  const auto t = NcuRawTable::parse(
      "\"ID\",\"Kernel Name\",\"Device\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"\",\"Kibyte\",\"us\"\n"
      "\"0\",\"vadd\",\"0\",\"2.5\",\"1.5\"\n",
      "odd.csv");
  EXPECT_EQ(value(t, 0, "gpu__time_duration.sum"), 1500.0);  // the other column is fine
  try {
    (void)value(t, 0, "dram__bytes_read.sum");
    FAIL();
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("odd.csv"), std::string::npos) << what;
    EXPECT_NE(what.find("'dram__bytes_read.sum' is in unit 'Kibyte'"), std::string::npos) << what;
    EXPECT_NE(what.find("--print-units base"), std::string::npos) << what;
  }
}

TEST(NcuRawTableTest, ReportWithoutKernelsHasNoResults) {
  EXPECT_TRUE(NcuRawTable::parse("", "empty.csv").results().empty());
  const auto t = NcuRawTable::parse(
      "==PROF== Connected to process 1\n==WARNING== No kernels were profiled.\n", "none.csv");
  EXPECT_TRUE(t.results().empty());
  EXPECT_TRUE(t.columns().empty());
}

TEST(NcuRawTableTest, TruncatedFileIsAnError) {
  const std::string text = fixture_text("ncu/vadd_raw_nvtx.csv");
  // Cut inside the last row: fewer cells than the header, or an unclosed quote.
  const std::string mid_row = text.substr(0, text.size() - 200);
  const std::string mid_cell = mid_row.substr(0, mid_row.rfind('"') + 3);
  for (const auto& cut : {mid_row, mid_cell}) {
    const std::string e = error_of(cut);
    EXPECT_NE(e.find("bad.csv"), std::string::npos) << e;
    EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  }
  // Only the header.
  EXPECT_NE(error_of(text.substr(0, text.find('\n') + 1)).find("units row"), std::string::npos);
}

TEST(NcuRawTableTest, MissingUnitsRowIsAnError) {
  std::string text = fixture_text("ncu/vadd_raw_nvtx.csv");
  const auto first_nl = text.find('\n');
  text.erase(first_nl + 1, text.find('\n', first_nl + 1) - first_nl);  // drop line 2
  const std::string e = error_of(text);
  EXPECT_NE(e.find("units row is missing"), std::string::npos) << e;
  EXPECT_NE(e.find("line 2"), std::string::npos) << e;
}

// `ncu --csv --page raw ./app > out.csv 2>&1`: the program printed before the table, among
// ncu's own lines (issue 15, defect 13: "expected the header row ..., found "done no error"").
TEST(NcuRawTableTest, ProgramOutputBeforeTheHeaderIsSkippedAndNamed) {
  const std::string table_text = fixture_text("ncu/nvtx_nested_raw_stdout.csv");
  const std::string header = table_text.substr(table_text.find("\"ID\""));
  const std::string text = "==PROF== Connected to process 7 (/tmp/app)\nstarting \"run\n\n"
                           "done no error\n==PROF== Disconnected from process 7\n" + header;
  const auto t = NcuRawTable::parse(text, "out.csv");
  ASSERT_EQ(t.results().size(), 5u);
  EXPECT_EQ(t.results()[0].kernel, "kA(float *)");
  EXPECT_EQ(t.results()[0].line, 8u);  // line numbers count the skipped lines (header: 6)
  ASSERT_EQ(t.skipped().size(), 4u);
  EXPECT_EQ(t.skipped()[0].line, 1u);
  EXPECT_EQ(t.skipped()[1].text, "starting \"run");  // an unbalanced quote opens no cell
  EXPECT_EQ(t.skipped()[2].line, 4u);
  EXPECT_EQ(t.skipped()[2].text, "done no error");
  EXPECT_TRUE(table("vadd_raw_nvtx.csv").skipped().empty());
}

TEST(NcuRawTableTest, IdsAndDevicesMustBeWholeNumbersInRange) {
  const std::string head = "\"ID\",\"Kernel Name\",\"Device\"\n\"\",\"\",\"\"\n";
  for (const char* row : {"\"1.5\",\"k\",\"0\"", "\"1e300\",\"k\",\"0\"", "\"-1\",\"k\",\"0\"",
                          "\"1\",\"k\",\"3e9\"", "\"1\",\"k\",\"0.5\""}) {
    const std::string e = error_of(head + row + "\n");
    EXPECT_NE(e.find("bad.csv' line 3: \"ID\" and \"Device\" must be integers (ID up to 2^53, "
                     "Device up to 2147483647), found"),
              std::string::npos)
        << row << ": " << e;
  }
  const auto ok = NcuRawTable::parse(head + "\"9007199254740992\",\"k\",\"2\"\n", "ok.csv");
  EXPECT_EQ(ok.results().at(0).id, 9007199254740992LL);
  EXPECT_EQ(ok.results().at(0).device, 2);
}

TEST(NcuRawTableTest, OtherCsvIsNotTakenForAnNcuReport) {
  EXPECT_NE(error_of("a,b\n1,2\n").find("header row of ncu's raw page"), std::string::npos);
  EXPECT_NE(error_of("\"ID\",\"x\"\n\"\",\"\"\n").find("no \"Kernel Name\" column"),
            std::string::npos);
  EXPECT_NE(error_of("\"ID\",\"Kernel Name\",\"Device\"\n\"\",\"\",\"\"\n\"x\",\"k\",\"0\"\n")
                .find("must be integers"),
            std::string::npos);
}

TEST(NcuRawTableTest, TextCellAsNumberIsAnErrorNamingTheColumn) {
  const auto t = table("vadd_raw_nvtx.csv");
  try {
    (void)value(t, 0, "launch__cluster_scheduling_policy");  // "PolicySpread"
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("launch__cluster_scheduling_policy"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("PolicySpread"), std::string::npos);
  }
}

}  // namespace
}  // namespace kscope::ncu
