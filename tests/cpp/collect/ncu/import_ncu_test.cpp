// kscope::import_ncu on every fixture, on .ncu-rep input (through a fake ncu) and on bad input.
#include "kscope/ncu_import.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "kscope/errors.hpp"
#include "ncu_test_support.hpp"
#include "support/error_text.hpp"

namespace kscope {
namespace {

const ProcessedRow* row(const Results& r, std::size_t config, const std::string& metric) {
  for (const auto& p : r.processed()) {
    if (p.config == config && p.metric == metric) return &p;
  }
  return nullptr;
}

// A kernel name that is not UTF-8 (issue 15, defect 4: import-ncu aborted in the JSON writer
// with type_error.316) is carried with "\xNN" escapes into the rows, the JSON and back.
TEST(ImportNcuTest, KernelNamesThatAreNotUtf8AreEscaped) {
  std::string text = testing::fixture_text("ncu/nvtx_nested_raw_stdout.csv");
  const std::string from = "\"kA(float *)\"";
  text.replace(text.find(from), from.size(), "\"k\xFF\xFE" "A(float *)\"");
  const std::string dir = testing::scratch_dir("import_ncu_latin1");
  std::ofstream(dir + "latin1.csv") << text;
  const auto r = import_ncu(dir + "latin1.csv");
  EXPECT_EQ(row(r, 0, "gpu__time_duration.sum")->kernel, "k\\xFF\\xFEA");
  r.write_json(dir + "latin1.json");
  EXPECT_EQ(row(Results::load(dir + "latin1.json"), 0, "gpu__time_duration.sum")->kernel,
            "k\\xFF\\xFEA");
}

TEST(ImportNcuTest, OneRowPerKernelWithNvtxRangesMetricsAndUnits) {
  const auto r = import_ncu(testing::fixture("ncu/nvtx_nested_raw_stdout.csv"));
  ASSERT_EQ(r.configs().size(), 5u);
  EXPECT_EQ(r.parameters(), (std::vector<std::string>{"ID", "Block Size", "Grid Size"}));
  const std::vector<std::string> labels = {"bench@outer/", "bench@outer/inner/", "bench@outer/",
                                           "dflt/", "bench@se"};
  const std::vector<double> durations = {2816, 2240, 1952, 2208, 1888};
  for (std::size_t i = 0; i < 5; ++i) {
    const auto* p = row(r, i, "gpu__time_duration.sum");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->annotation, labels[i]);
    EXPECT_EQ(p->avg, durations[i]);
    EXPECT_EQ(p->unit, std::optional<std::string>("ns"));
    EXPECT_EQ(p->num_runs, 1u);
    EXPECT_EQ(r.configs()[i][0], Value(static_cast<std::int64_t>(i)));
  }
  EXPECT_EQ(row(r, 0, "dram__bytes_read.sum")->avg, 4096.0);
  EXPECT_EQ(row(r, 0, "dram__bytes_read.sum")->unit, std::optional<std::string>("byte"));
  EXPECT_EQ(row(r, 1, "gpu__time_duration.sum")->kernel, "kB");
  EXPECT_EQ(row(r, 0, "launch__grid_size"), nullptr);  // attributes left out by default
  EXPECT_EQ(r.metadata().gpu, "NVIDIA H200");
  EXPECT_EQ(r.metadata().compute_capability, 90);
  EXPECT_EQ(r.metadata().sm_count, 132);
  EXPECT_EQ(r.metadata().compute_clock, 1980000);
  EXPECT_EQ(r.metadata().tool, "ncu");
  EXPECT_EQ(r.metadata().duration_definition, "ncu import");
}

TEST(ImportNcuTest, ChosenMetricsAndAllMetrics) {
  NcuImportOptions o;
  o.metrics = {"gpu__time_duration.sum", "launch__grid_size"};
  const auto r = import_ncu(testing::fixture("ncu/vadd_raw_nvtx.csv"), o);
  EXPECT_EQ(r.raw().size(), 6u);
  EXPECT_EQ(row(r, 0, "launch__grid_size")->avg, 65536.0);
  EXPECT_FALSE(row(r, 0, "launch__grid_size")->unit.has_value());
  EXPECT_EQ(row(r, 2, "gpu__time_duration.sum")->avg, 59168.0);
  EXPECT_EQ(row(r, 2, "gpu__time_duration.sum")->annotation, "probe@vadd/");
  EXPECT_EQ(row(r, 2, "gpu__time_duration.sum")->kernel, "vadd");

  NcuImportOptions all;
  all.all_metrics = true;
  const auto everything = import_ncu(testing::fixture("ncu/vadd_raw_nvtx.csv"), all);
  EXPECT_NE(row(everything, 0, "launch__grid_size"), nullptr);
  EXPECT_NE(row(everything, 0, "device__attribute_clock_rate"), nullptr);
  EXPECT_EQ(row(everything, 0, "device__attribute_display_name"), nullptr);  // text, not numeric
}

TEST(ImportNcuTest, AutoScaledUnitsAreConvertedToBaseUnits) {
  NcuImportOptions all;
  all.all_metrics = true;
  const auto r = import_ncu(testing::fixture("ncu/kscope_sweep_auto_units.csv"), all);
  const auto* time = row(r, 3, "gpu__time_duration.sum");  // "10.001" us
  ASSERT_NE(time, nullptr);
  EXPECT_NEAR(time->avg, 10001.0, 1e-6);
  EXPECT_EQ(time->unit, std::optional<std::string>("ns"));
  const auto* l2 = row(r, 0, "launch__persisting_l2_cache_size");  // "11.80" Mbyte
  ASSERT_NE(l2, nullptr);
  EXPECT_DOUBLE_EQ(l2->avg, 11.8e6);
  EXPECT_EQ(l2->unit, std::optional<std::string>("byte"));
}

TEST(ImportNcuTest, KscopeAnnotationsAndRangeReplay) {
  const auto r = import_ncu(testing::fixture("ncu/kscope_range_replay.csv"));
  ASSERT_EQ(r.configs().size(), 12u);
  EXPECT_EQ(r.parameters(), (std::vector<std::string>{"ID"}));
  EXPECT_EQ(row(r, 3, "gpu__time_duration.sum")->annotation, "scale");
  EXPECT_EQ(row(r, 3, "gpu__time_duration.sum")->kernel, "range");
}

TEST(ImportNcuTest, NcuRepIsExportedWithNcu) {
  const std::string dir = testing::scratch_dir("import_ncu_rep");
  std::filesystem::copy_file(testing::fixture("ncu/vadd_raw_nvtx.csv"), dir + "run.ncu-rep");
  NcuImportOptions o;
  o.ncu = testing::fixture("ncu/fake_ncu.sh");
  o.metrics = {"gpu__time_duration.sum"};
  const auto r = import_ncu(dir + "run.ncu-rep", o);
  EXPECT_EQ(r.name(), "run");
  EXPECT_EQ(r.raw().size(), 3u);
  EXPECT_EQ(r.raw()[0].value, 60832.0);
}

TEST(ImportNcuTest, ReportWithoutKernelsGivesNoRows) {
  const std::string dir = testing::scratch_dir("import_ncu_empty");
  testing::write_text(dir + "empty.csv", "==WARNING== No kernels were profiled.\n");
  const auto r = import_ncu(dir + "empty.csv");
  EXPECT_TRUE(r.raw().empty());
  EXPECT_TRUE(r.configs().empty());
}

TEST(ImportNcuTest, BadInputIsAClearError) {
  const std::string dir = testing::scratch_dir("import_ncu_bad");
  const std::string text = testing::fixture_text("ncu/vadd_raw_nvtx.csv");
  testing::write_text(dir + "cut.csv", text.substr(0, text.size() / 2));
  EXPECT_THROW((void)import_ncu(dir + "cut.csv"), Error);
  EXPECT_THROW((void)import_ncu(dir + "does_not_exist.csv"), Error);
  NcuImportOptions o;
  o.metrics = {"not_a_metric"};
  EXPECT_THROW((void)import_ncu(testing::fixture("ncu/vadd_raw_nvtx.csv"), o), InvalidArgument);
}

// An empty CSV imported as "(no rows)", a binary file was taken for a .ncu-rep and reported as
// "ncu not available" (issue 38).
TEST(ImportNcuTest, EmptyAndBinaryFilesAreSaidToBeSo) {
  const std::string dir = testing::scratch_dir("import_ncu_not_csv");
  const std::string expected =
      ": expected the CSV of ncu's raw page (ncu --csv --page raw) or a .ncu-rep report";
  testing::write_text(dir + "empty.csv", "");
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(dir + "empty.csv"); }),
            "'" + dir + "empty.csv' is empty (0 bytes)" + expected);
  testing::write_text(dir + "blank.csv", "\n \r\n");
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(dir + "blank.csv"); }),
            "'" + dir + "blank.csv' is empty (only white space)" + expected);
  testing::write_text(dir + "data.bin", std::string("PK\x03\x04\0\0", 6));
  NcuImportOptions o;
  o.ncu = "/nonexistent/ncu";  // never run: the file is no report
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(dir + "data.bin", o); }),
            "'" + dir + "data.bin' is not a text file (byte \\x03 at offset 2)" + expected);
}

// What a program prints on a terminal (colours, a progress bar's \b and \r) is text.
TEST(ImportNcuTest, TerminalOutputBeforeTheTableIsText) {
  const std::string path = testing::scratch_dir("import_ncu_terminal") + "out.csv";
  testing::write_text(path, "\x1b[32mok\x1b[0m 50%\b\b\b\r100%\n" +
                                testing::fixture_text("ncu/vadd_raw_nvtx.csv"));
  EXPECT_EQ(import_ncu(path).configs().size(), 3u);
}

// A report starts with ncu's magic: that is exported with ncu whatever its name.
TEST(ImportNcuTest, AReportIsKnownByItsMagicToo) {
  const std::string dir = testing::scratch_dir("import_ncu_magic");
  // fake_ncu.sh "exports" a report by printing it: the magic line, then the CSV.
  testing::write_text(dir + "run.bin", std::string("NVR\0\n", 5) +
                                           testing::fixture_text("ncu/vadd_raw_nvtx.csv"));
  NcuImportOptions o;
  o.ncu = testing::fixture("ncu/fake_ncu.sh");
  o.metrics = {"gpu__time_duration.sum"};
  EXPECT_EQ(import_ncu(dir + "run.bin", o).raw().size(), 3u);
}

// The same row three times made three kernels (issue 38).
TEST(ImportNcuTest, AnIdOnTwoRowsIsNamed) {
  std::string text = testing::fixture_text("ncu/vadd_raw_nvtx.csv");
  const auto row = text.find("\n\"1\",");
  text.replace(row + 2, 1, "0");  // result 1 becomes a second ID 0
  const std::string path = testing::scratch_dir("import_ncu_ids") + "twice.csv";
  testing::write_text(path, text);
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(path); }),
            "'" + path + "' line 4: ID 0 again (first on line 3): ncu numbers each result once, "
            "so rows were repeated or two pages joined. Export the report once. kscope reads "
            "ncu's raw page as CSV: ncu --import <report> --csv --page raw --print-units base.");
}

// A fuzzed 3 MB header took 10.6 s and 1 GB under ASan and printed a table of 294 MB: a cell and
// a header have a size no raw page reaches.
TEST(ImportNcuTest, ACellOrAHeaderPastItsLimitIsNamed) {
  const std::string dir = testing::scratch_dir("import_ncu_limits");
  const std::string text = testing::fixture_text("ncu/vadd_raw_nvtx.csv");
  std::string long_cell = text;
  long_cell.replace(long_cell.find("vadd(const float *"), 4, std::string(70000, 'v'));
  testing::write_text(dir + "cell.csv", long_cell);
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(dir + "cell.csv"); }),
            "'" + dir + "cell.csv' line 3: cell 7 is longer than 65536 bytes, more than any cell "
            "of ncu's raw page; the file is not its CSV (ncu --import <report> --csv --page raw "
            "--print-units base).");
  std::string wide = "\"ID\",\"Kernel Name\",\"Device\"";
  for (int i = 0; i < 16382; ++i) wide += ",m" + std::to_string(i);
  testing::write_text(dir + "wide.csv", wide + "\n");
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(dir + "wide.csv"); }),
            "'" + dir + "wide.csv' line 1: the header has 16385 columns, more than the 16384 of "
            "any raw page. kscope reads ncu's raw page as CSV: ncu --import <report> --csv "
            "--page raw --print-units base.");
  std::string heavy = "\"ID\",\"Kernel Name\",\"Device\"";
  for (int i = 0; i < 20; ++i) heavy += ",m" + std::to_string(i) + std::string(60000, 'x');
  testing::write_text(dir + "heavy.csv", heavy + "\n");
  EXPECT_EQ(testing::error_text<FileFormatError>([&] { (void)import_ncu(dir + "heavy.csv"); }),
            "'" + dir + "heavy.csv' line 1: the header's names take 1200069 bytes, more than the "
            "1048576 of any raw page. kscope reads ncu's raw page as CSV: ncu --import <report> "
            "--csv --page raw --print-units base.");
}

// A range name with '"': the CSV doubles it (RFC 4180), ncu's entry keeps it as it is.
TEST(ImportNcuTest, RangeNamesWithQuotes) {
  std::string text = testing::fixture_text("ncu/vadd_raw_nvtx.csv");
  const std::string from = "\"\"probe:vadd:none:none:none:none:ASCII:vadd\"\"";
  const std::string to =
      "\"\"probe:say \"\"hi\"\":none:none:none:none:ASCII:say \"\"hi\"\"\"\"";
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
  }
  const std::string path = testing::scratch_dir("import_ncu_quotes") + "quotes.csv";
  testing::write_text(path, text);
  const auto r = import_ncu(path);
  ASSERT_EQ(r.configs().size(), 3u);
  EXPECT_EQ(row(r, 0, "gpu__time_duration.sum")->annotation, "probe@say \"hi\"/");
}

TEST(ImportNcuTest, ResultsRoundTripThroughJson) {
  const auto r = import_ncu(testing::fixture("ncu/vadd_raw_nvtx.csv"));
  const std::string path = testing::scratch_dir("import_ncu_json") + "r.json";
  r.write_json(path);
  const auto back = Results::load(path);
  ASSERT_EQ(back.raw().size(), r.raw().size());
  EXPECT_EQ(back.raw()[0].value, r.raw()[0].value);
  EXPECT_EQ(back.raw()[0].annotation, "probe@vadd/");
  EXPECT_EQ(back.configs().size(), 3u);
}

}  // namespace
}  // namespace kscope
