// The Parquet format (src/report/parquet_*): its encodings (Thrift compact, RLE / bit-packed
// hybrid), the table writer and reader, and the result file: everything a result holds comes
// back, by the file's magic bytes whatever its name, and what kscope cannot read is a
// FileFormatError saying what and what to do. pyarrow and pandas check the same files from
// Python (tests/python/test_parquet.py).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <typeinfo>

#include "golden.hpp"
#include "kscope/errors.hpp"
#include "report/parquet_result.hpp"
#include "report/parquet_table.hpp"
#include "report/result_reader.hpp"
#include "report/rle_hybrid.hpp"
#include "report/thrift_compact.hpp"
#include "report/writer.hpp"
#include "sample_results.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

using report::parquet::decode_hybrid;
using report::parquet::encode_hybrid;

std::string error_of(const std::string& path) {
  try {
    (void)Results::load(path);
  } catch (const FileFormatError& e) {
    return e.what();
  }
  return "no error";
}

// Every part a result can have: raw and processed rows (NaN values, a normalised baseline),
// telemetry with a missing reading, a timeline of two parts, stops, a failed config, a finding.
Results every_part() {
  Results::Data d = testing::sample_results(true).data();
  RunTelemetry t;
  t.config = 1;
  t.run = 2;
  t.cooling_wait_s = 2e-6;
  t.before = TelemetrySample{1980, 3201, 60, std::nullopt, 500.5, 0x24, 1.0};
  d.telemetry.push_back(t);
  t.run = 0;
  t.after = TelemetrySample{};
  d.telemetry.push_back(t);
  PhaseSpan p;
  p.phase = "benchmark";
  p.config = 0;
  p.run = 1;
  p.pass = 1;
  p.warmup = true;
  p.start_ns = -5;
  p.end_ns = 10;
  d.timeline.phases.push_back(p);
  p = PhaseSpan();
  p.phase = "journal";
  p.part = 1;
  p.start_ns = 86'400'000'000'000;
  p.end_ns = p.start_ns + 7;
  d.timeline.phases.push_back(p);
  KernelSpan k;
  k.annotation = "fast";
  k.kernel = "vadd_vec4";
  k.config = 1;
  k.run = 2;
  k.device = 3;
  k.stream = 7;
  k.start_ns = 100;
  k.end_ns = 200;
  d.timeline.kernels.push_back(k);
  k.stream.reset();
  k.part = 1;
  d.timeline.kernels.push_back(k);
  d.timeline.parts = {"rank 0: a.json", "rank 1: b.json"};
  d.stops.push_back({0, 3, "target", 0.0049, 1.5e-5});
  d.stops.push_back({1, 3, "no_values", std::nan(""), 0});
  d.failures.push_back({1, 0, true, "ValueError", "bad \"size\"\n"});
  Finding f;
  f.check = "memcheck";
  f.host_stack = {"main (a.out+0x10)"};
  f.block = Dim3{1, 2, 3};
  f.config = 0;
  d.findings.push_back(f);
  d.journal_path = "/tmp/journal-vadd-0.jsonl";
  d.complete = false;
  return Results(std::move(d));
}

// The info collectors' result, with one column holding both a number and a string.
Results mixed_info() {
  Results::Data d = Results::load(testing::fixture("golden/info_collectors_results.json")).data();
  d.raw[0].info[1] = InfoValue("text");
  d.processed[0].info[0] = InfoValue(2.5);
  d.raw[1].info[4] = InfoValue();
  return Results(std::move(d));
}

TEST(ParquetResult, EverythingComesBack) {
  const std::string dir = testing::scratch_dir("parquet_round_trip");
  int n = 0;
  for (const Results& r : {every_part(), testing::sample_results(false), mixed_info(),
                           Results::load(testing::fixture("golden/info_collectors_results.json"))}) {
    const std::string path = dir + "r" + std::to_string(n++) + ".parquet";
    r.write("parquet", path);
    const Results back = Results::load(path);
    EXPECT_EQ(back.to_json(), r.to_json()) << path;
    EXPECT_EQ(back.checked(), r.checked());
  }
}

// What a command does not need is not read (kscope show reads the processed table alone): the
// same tables as the JSON reader's, the rest of the result whole.
TEST(ParquetResult, SkipsTheTablesNotAsked) {
  const std::string path = testing::scratch_dir("parquet_tables") + "r.parquet";
  const Results full = every_part();
  full.write("parquet", path);
  const Results some = report::load_results(path, report::kProcessedTable);
  EXPECT_TRUE(some.raw().empty());
  EXPECT_TRUE(some.telemetry().empty());
  EXPECT_TRUE(some.timeline().empty());
  EXPECT_EQ(some.processed().size(), full.processed().size());
  EXPECT_EQ(some.configs().size(), full.configs().size());
  EXPECT_EQ(some.findings().size(), full.findings().size());
  EXPECT_EQ(some.failed_configs().size(), full.failed_configs().size());
  EXPECT_EQ(some.stops().size(), full.stops().size());
  const Results raw = report::load_results(path, report::kCompareTables);
  EXPECT_EQ(raw.raw().size(), full.raw().size());
  EXPECT_TRUE(raw.processed().empty());
  EXPECT_EQ(report::load_results(path, {}).to_json(), full.to_json());
}

TEST(ParquetResult, ReadByItsMagicBytesWhateverItsName) {
  const std::string path = testing::scratch_dir("parquet_magic") + "r.json";
  testing::sample_results(true).write("parquet", path);
  EXPECT_EQ(testing::read_file(path).substr(0, 4), "PAR1");
  EXPECT_EQ(Results::load(path).to_json(), testing::sample_results(true).to_json());
}

// A big raw table goes out in row groups of 65536 rows, and comes back whole.
TEST(ParquetResult, ManyRowsGoInRowGroups) {
  Results::Data d = testing::sample_results(false).data();
  const std::vector<RawRow> one = d.raw;
  while (d.raw.size() < 140'000) d.raw.insert(d.raw.end(), one.begin(), one.end());
  for (std::size_t i = 0; i < d.raw.size(); ++i) d.raw[i].value = static_cast<double>(i);
  const Results r(std::move(d));
  const std::string path = testing::scratch_dir("parquet_row_groups") + "r.parquet";
  r.write("parquet", path);
  report::parquet::ByteSource source(path);
  report::parquet::TableReader table(source, 0, source.size(), path);
  EXPECT_EQ(table.row_groups(), 3u);
  EXPECT_EQ(table.rows(), r.raw().size());
  const Results back = Results::load(path);
  ASSERT_EQ(back.raw().size(), r.raw().size());
  EXPECT_EQ(back.raw().back().value, r.raw().back().value);
  EXPECT_EQ(back.raw().back().metric, r.raw().back().metric);
}

TEST(ParquetResult, PythonsConfigValuesAreKept) {
  const std::string path = testing::scratch_dir("parquet_config_values") + "r.parquet";
  const std::vector<std::string> values = {"[[1,2],\"f32\"]"};
  report::write_results_parquet(testing::sample_results(false), path, &values);
  const auto back = report::parquet_config_values(path);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0], values[0]);
  EXPECT_EQ(back[1], "[4096,\"f16, packed\"]");
  EXPECT_EQ(Results::load(path).configs()[0][0].get<std::string>(), "[1,2]");
}

TEST(ParquetResult, IsBinary) {
  const report::Writer writer = report::find_writer("parquet");
  EXPECT_TRUE(writer.binary);
  try {
    report::check_text(writer, "to a terminal");
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "format 'parquet' writes a binary file, not text: it cannot be written "
                           "to a terminal. Write it to a file (kscope show -f parquet -o FILE, "
                           "write(\"parquet\", path))");
  }
  EXPECT_NO_THROW(report::check_text(report::find_writer("md"), "to a terminal"));
}

TEST(ParquetResult, AParquetFileThatIsNoResultSaysSo) {
  const std::string path = testing::scratch_dir("parquet_no_result") + "t.parquet";
  {
    std::ofstream file(path, std::ios::binary);
    report::parquet::Output out(file);
    report::parquet::TableWriter w(out, {{"x", report::parquet::Type::kInt64, false}});
    w.value(std::int64_t{1});
    w.end_row();
    w.finish();
  }
  EXPECT_EQ(error_of(path),
            "'" + path + "' is a Parquet file but not a kscope result: its key-value metadata has "
            "no \"kscope.results\". kscope reads the Parquet files it writes (kscope show -f "
            "parquet, write(\"parquet\", path)); read other Parquet files with pandas.read_parquet");
}

TEST(ParquetResult, ACutFileSaysSo) {
  const std::string dir = testing::scratch_dir("parquet_cut");
  testing::sample_results(false).write("parquet", dir + "r.parquet");
  const std::string bytes = testing::read_file(dir + "r.parquet");
  std::ofstream(dir + "cut.parquet", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_EQ(error_of(dir + "cut.parquet"),
            "'" + dir + "cut.parquet': not a Parquet file (it does not start and end with \"PAR1\")");
  std::ofstream(dir + "short.parquet", std::ios::binary) << "PAR1";
  EXPECT_EQ(error_of(dir + "short.parquet"), "'" + dir + "short.parquet': not a Parquet file (4 bytes)");
}

// A table's bytes overwritten: the error names the file, the table and what is wrong.
TEST(ParquetResult, ADamagedTableIsNamed) {
  const std::string dir = testing::scratch_dir("parquet_damaged");
  testing::sample_results(false).write("parquet", dir + "r.parquet");
  std::string bytes = testing::read_file(dir + "r.parquet");
  // The configs table comes first after the file's magic: break its own magic.
  ASSERT_EQ(bytes.substr(4, 4), "PAR1");
  bytes[4] = 'X';
  std::ofstream(dir + "bad.parquet", std::ios::binary) << bytes;
  const std::string e = error_of(dir + "bad.parquet");
  EXPECT_EQ(e.rfind("'" + dir + "bad.parquet', table configs (bytes 4 to ", 0), 0u) << e;
  EXPECT_NE(e.find("): not a Parquet file (it does not start and end with \"PAR1\")"),
            std::string::npos) << e;
}

// Any byte of a file changed: it loads, or it is a FileFormatError; never another exception or a
// crash (the ASan build runs this too).
TEST(ParquetResult, ChangedBytesAreFileFormatErrors) {
  const std::string dir = testing::scratch_dir("parquet_changed_bytes");
  every_part().write("parquet", dir + "r.parquet");
  const std::string bytes = testing::read_file(dir + "r.parquet");
  std::mt19937 random(11);
  int errors = 0;
  for (int i = 0; i < 400; ++i) {
    std::string changed = bytes;
    const std::size_t at = random() % changed.size();
    changed[at] = static_cast<char>(random() % 3 == 0 ? 0xFF : random() % 256);
    std::ofstream(dir + "x.parquet", std::ios::binary) << changed;
    try {
      (void)Results::load(dir + "x.parquet");
    } catch (const FileFormatError&) {
      ++errors;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "byte " << at << ": " << typeid(e).name() << ": " << e.what();
    }
  }
  EXPECT_GT(errors, 100);
}

TEST(RleHybrid, ValuesComeBackForEveryWidthAndRun) {
  std::mt19937 random(7);
  for (int width : {1, 2, 3, 7, 8, 13, 16, 32}) {
    for (std::size_t n : {1u, 7u, 8u, 9u, 100u, 1000u}) {
      std::vector<std::uint32_t> values;
      const std::uint32_t limit = width == 32 ? 0xFFFFFFFFu : (1u << width);
      while (values.size() < n) {
        const std::uint32_t v = static_cast<std::uint32_t>(random()) % limit;
        const std::size_t repeat = random() % 3 == 0 ? 1 + random() % 20 : 1;
        values.insert(values.end(), std::min(repeat, n - values.size()), v);
      }
      std::string bytes;
      encode_hybrid(values, width, bytes);
      std::vector<std::uint32_t> back;
      decode_hybrid(bytes.data(), bytes.size(), width, n, limit, back);
      EXPECT_EQ(back, values) << "width " << width << ", " << n << " values";
      if (bytes.size() > 1) {  // the run header alone
        EXPECT_THROW(decode_hybrid(bytes.data(), 1, width, n, limit, back),
                     FileFormatError)
            << "width " << width << ", " << n << " values, " << bytes.size() << " bytes";
      }
    }
  }
}

TEST(RleHybrid, ARunOfOneValueIsTwoBytes) {
  std::string bytes;
  encode_hybrid(std::vector<std::uint32_t>(100000, 1), 1, bytes);
  EXPECT_EQ(bytes.size(), 4u);  // a varint of 200000 and the value's byte
}

TEST(ThriftCompact, FieldsComeBackAndUnknownOnesAreSkipped) {
  std::string bytes;
  report::ThriftWriter w(bytes);
  w.begin_struct();
  w.field_i32(1, -3);
  w.field_i64(40, std::int64_t{1} << 40);  // a long delta: the id written out
  w.field_struct(41);
  w.field_binary(1, "skipped");
  w.field_bool(2, true);
  w.end_struct();
  w.field_list(42, report::ThriftType::kBinary, 20);
  for (int i = 0; i < 20; ++i) w.element_binary("x");
  w.field_binary(43, "kept");
  w.end_struct();
  report::ThriftReader r(bytes.data(), bytes.size());
  r.begin_struct();
  std::vector<int> ids;
  std::string kept;
  for (auto f = r.next_field(); !f.stop(); f = r.next_field()) {
    ids.push_back(f.id);
    if (f.id == 1) {
      EXPECT_EQ(r.read_i32(), -3);
    } else if (f.id == 40) {
      EXPECT_EQ(r.read_i64(), std::int64_t{1} << 40);
    } else if (f.id == 43) {
      kept = r.read_binary();
    } else {
      r.skip(f.type);
    }
  }
  EXPECT_EQ(ids, (std::vector<int>{1, 40, 41, 42, 43}));
  EXPECT_EQ(kept, "kept");
  report::ThriftReader cut(bytes.data(), bytes.size() - 3);
  cut.begin_struct();
  EXPECT_THROW(
      {
        for (auto f = cut.next_field(); !f.stop(); f = cut.next_field()) cut.skip(f.type);
      },
      FileFormatError);
}

}  // namespace
}  // namespace kscope
