#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "../core/records.hpp"
#include "core/record_store.hpp"
#include "journal_sample.hpp"
#include "kscope/errors.hpp"
#include "report/journal.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {
using testing::kernel;
using testing::run_log;

Results::Data header() { return testing::journal_header(); }

std::string write_journal(const std::string& dir, bool close, const std::string& error = "") {
  const std::string path = dir + "journal-j-0.jsonl";
  report::JournalWriter w(path, header());
  w.append({run_log(0, 0, {"k"}), run_log(0, 1, {"k"})},
           {kernel("k", "vadd", 0, 0, 100, 1), kernel("k", "vadd", 0, 1, 110, 2)});
  w.append({run_log(1, 0, {"k"})}, {kernel("k", "vadd", 1, 0, 200, 3)});
  if (close) w.close(error);
  return path;
}

TEST(JournalTest, CompleteJournalLoadsBackAsResults) {
  const std::string path = write_journal(testing::scratch_dir("journal_complete"), true);
  const Results r = Results::load(path);
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.name(), "j");
  EXPECT_EQ(r.journal_path(), path);
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_DOUBLE_EQ(r.processed()[0].avg, 105);
  EXPECT_EQ(r.processed()[1].num_runs, 1u);
}

// A line owns its share of the records it writes: the session's output may go before the
// journal's thread has read them (a session that ends with an error does not wait for it).
TEST(JournalTest, ALineKeepsItsSharedRecordsAfterTheirOwnerWent) {
  const std::string path = testing::scratch_dir("journal_shared") + "journal-j-0.jsonl";
  report::JournalWriter w(path, header());
  {
    RecordStore records(std::vector<KernelRecord>{kernel("k", "vadd", 0, 0, 100, 1),
                                                  kernel("k", "vadd", 0, 1, 110, 2)});
    w.append({run_log(0, 0, {"k"}), run_log(0, 1, {"k"})}, records.share(0));
  }
  w.close("");
  w.finish();
  const Results r = Results::load(path);
  EXPECT_TRUE(r.complete());
  ASSERT_EQ(r.processed().size(), 1u);
  EXPECT_DOUBLE_EQ(r.processed()[0].avg, 105);
}

TEST(JournalTest, UnfinishedJournalLoadsWhatWasMeasured) {
  const std::string dir = testing::scratch_dir("journal_unfinished");
  const std::string path = write_journal(dir, false);
  // Simulate a crash in the middle of writing a line.
  std::ofstream(path, std::ios::app) << "{\"kind\": \"runs\", \"runs\": [{\"conf";
  const Results r = Results::load(path);
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(r.processed().size(), 2u);
  ASSERT_EQ(r.load_warnings().size(), 1u);
  EXPECT_EQ(r.load_warnings()[0],
            "journal '" + path + "': line 5 is cut short (the process ended while writing it) "
            "(the line was skipped; the result lacks what it held)");
}

TEST(JournalTest, AFailedConfigLoadsWithoutValuesAndWithItsError) {
  const std::string path = testing::scratch_dir("journal_config_failed") + "journal-j-0.jsonl";
  {
    report::JournalWriter w(path, header());
    w.append({run_log(0, 0, {"k"}), run_log(1, 0, {"k"})},
             {kernel("k", "vadd", 0, 0, 100, 1), kernel("k", "vadd", 1, 0, 200, 2)});
    w.append_failure(ConfigFailure{1, 1, false, "ValueError", "odd n"});
    w.close("");
  }
  const Results r = Results::load(path);
  EXPECT_TRUE(r.complete());
  ASSERT_EQ(r.failed_configs().size(), 1u);
  EXPECT_EQ(r.failed_configs()[0].type, "ValueError");
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_DOUBLE_EQ(r.processed()[0].avg, 100);
  EXPECT_FALSE(r.processed()[0].error.has_value());
  EXPECT_TRUE(std::isnan(r.processed()[1].avg));  // its run before the failure does not count
  EXPECT_EQ(r.processed()[1].num_runs, 0u);
  EXPECT_EQ(r.processed()[1].error, "ValueError: odd n (config 1, measured run 1)");
  EXPECT_EQ(r.raw().size(), 1u);
}

TEST(JournalTest, AMetadataLineReplacesTheHeaders) {
  const std::string path = testing::scratch_dir("journal_metadata") + "journal-j-0.jsonl";
  {
    report::JournalWriter w(path, header());
    Metadata m;
    m.gpu = "NVIDIA H200";
    m.tool = "ncu";
    w.append_metadata(m);
    w.close("");
  }
  EXPECT_EQ(Results::load(path).metadata().gpu, "NVIDIA H200");
}

TEST(JournalTest, MoveToRenamesAndKeepsWriting) {
  const std::string dir = testing::scratch_dir("journal_move");
  {
    report::JournalWriter w(dir + "a.jsonl", header());
    w.move_to(dir + "journal-j-0.jsonl");
    w.append({run_log(0, 0, {"k"})}, {kernel("k", "vadd", 0, 0, 100, 1)});
    w.close("");
  }
  EXPECT_FALSE(std::ifstream(dir + "a.jsonl").good());
  EXPECT_EQ(Results::load(dir + "journal-j-0.jsonl").processed().size(), 1u);
}

TEST(JournalTest, JournalOfAFailedSessionIsIncomplete) {
  const Results r = Results::load(write_journal(testing::scratch_dir("journal_failed"), true, "boom"));
  EXPECT_FALSE(r.complete());
}

// Killed before the first runs were written: the journal loads, empty, even though there is no
// baseline yet to normalize against (that raised InvalidArgument).
TEST(JournalTest, JournalWithOnlyItsHeaderLoadsEmpty) {
  const std::string path = testing::scratch_dir("journal_header_only") + "journal-j-0.jsonl";
  Results::Data d = header();
  d.options.normalize_against = "baseline";
  { report::JournalWriter w(path, d); }
  const Results r = Results::load(path);
  EXPECT_FALSE(r.complete());
  EXPECT_TRUE(r.processed().empty());
  EXPECT_EQ(r.options().normalize_against, "baseline");
}

TEST(JournalTest, FindingsLineLoadsBack) {
  const std::string path = testing::scratch_dir("journal_findings") + "journal-j-0.jsonl";
  {
    report::JournalWriter w(path, header());
    Finding f;
    f.check = "memcheck";
    f.kernel = "oob";
    f.config = 1;
    w.append_findings({f, f});
    w.close("");
  }
  const Results r = Results::load(path);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.findings().size(), 2u);
  EXPECT_EQ(r.findings()[1].kernel, "oob");
  EXPECT_EQ(r.findings()[1].config, std::optional<std::size_t>(1));
}

// A journal of `runs` runs of one config, one kernel each.
std::string many_runs_journal(const std::string& name, std::size_t runs) {
  const std::string path = testing::scratch_dir(name) + "journal-j-0.jsonl";
  Results::Data d = header();
  d.options.runs = static_cast<int>(runs);
  d.configs = configs({10}, "n");
  report::JournalWriter w(path, d);
  std::vector<RunLog> logs;
  std::vector<KernelRecord> records;
  for (std::size_t i = 0; i < runs; ++i) {
    logs.push_back(run_log(0, i, {"k"}));
    records.push_back(kernel("k", "vadd", 0, i, 100, i));
  }
  w.append(logs, records);
  w.close("");
  return path;
}

double load_seconds(const std::string& path, std::size_t runs) {
  const auto t0 = std::chrono::steady_clock::now();
  const Results r = Results::load(path);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.processed().at(0).num_runs, runs);
  return seconds;
}

// Records are matched to their runs in (near) linear time (issue 15, defect 15: 40k runs took
// 1.55 s, quadratic). Eight times the runs must cost well under 64 times the time, whatever the
// build type: quadratic matching gives a ratio of about 35 at these sizes, linear about 8 (the
// sizes keep the test near 20 s under ASan).
TEST(JournalTest, LoadTimeGrowsLinearlyWithRuns) {
  const std::string small = many_runs_journal("journal_many_4k", 4000);
  const std::string large = many_runs_journal("journal_many_32k", 32000);
  const double t_small = load_seconds(small, 4000);
  const double t_large = load_seconds(large, 32000);
  EXPECT_LT(t_large / t_small, 16) << t_small << " s for 4k runs, " << t_large << " s for 32k";
}

// Host phases go to the journal as "laps" (one entry per execution's contiguous laps, each phase
// named by its index in the "names" line before) and "spans" (region entries, journal writes,
// laps that do not follow on): read back, they are the same spans, in start order.
TEST(JournalTest, PhaseLapsReadBackAsTheSameSpans) {
  const std::string dir = testing::scratch_dir("journal_laps");
  const std::string path = dir + "journal-j-0.jsonl";
  std::vector<PhaseSpan> spans = {
      {"environment before", 0, 0, false, 0, "", 100, 110},
      {"tool before", 0, 0, false, 0, "", 110, 115},
      {"region entry", 0, 0, false, 0, "k", 120, 130},
      {"benchmark", 0, 0, false, 0, "", 115, 200},
      {"synchronize", 0, 0, false, 0, "", 200, 260},
      {"environment before", 0, 1, true, 0, "", 300, 305},  // a warm-up run: its own group
      {"benchmark", 0, 1, true, 0, "", 305, 400},
      {"benchmark", 0, 1, false, 2, "", 450, 500},  // a replay pass
      {"journal", std::nullopt, std::nullopt, false, 0, "", 500, 520},
  };
  {
    report::JournalWriter w(path, header());
    w.add_phases(spans);
    w.append({run_log(0, 0, {"k"})}, {kernel("k", "vadd", 0, 0, 100, 1)});
    w.add_phases({{"journal", std::nullopt, std::nullopt, false, 0, "", 600, 610}});
    w.close("");
    w.finish();
  }
  std::ifstream in(path);
  std::string header_line, names_line, runs_line;
  std::getline(in, header_line);
  std::getline(in, names_line);
  std::getline(in, runs_line);
  EXPECT_NE(names_line.find("\"phases\":[[0,\"environment before\"],[1,\"tool before\"],"
                            "[2,\"region entry\"],[3,\"benchmark\"],[4,\"synchronize\"],"
                            "[5,\"journal\"]]"),
            std::string::npos)
      << names_line;
  EXPECT_NE(runs_line.find("\"laps\":[[0,0,100,[0,10,1,5,3,85,4,60]],[0,1,300,[0,5,3,95],true,0],"
                           "[0,1,450,[3,50],false,2]],\"spans\":[[2,0,0,0,120,10],"
                           "[5,null,null,null,500,20]]"),
            std::string::npos)
      << runs_line;
  const auto back = report::read_journal(path).phases;
  std::vector<PhaseSpan> expected = spans;
  expected.push_back({"journal", std::nullopt, std::nullopt, false, 0, "", 600, 610});
  std::stable_sort(expected.begin(), expected.end(),
                   [](const PhaseSpan& a, const PhaseSpan& b) { return a.start_ns < b.start_ns; });
  ASSERT_EQ(back.size(), expected.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    EXPECT_EQ(back[i].phase, expected[i].phase) << i;
    EXPECT_EQ(back[i].config, expected[i].config) << i;
    EXPECT_EQ(back[i].run, expected[i].run) << i;
    EXPECT_EQ(back[i].warmup, expected[i].warmup) << i;
    EXPECT_EQ(back[i].pass, expected[i].pass) << i;
    EXPECT_EQ(back[i].annotation, expected[i].annotation) << i;
    EXPECT_EQ(back[i].start_ns, expected[i].start_ns) << i;
    EXPECT_EQ(back[i].end_ns, expected[i].end_ns) << i;
  }
}

// The journal's thread writes an append at once, without waiting for close(): a crash loses at
// most what was handed over in the last moment.
TEST(JournalTest, EveryAppendReachesTheFileWithoutClose) {
  const std::string dir = testing::scratch_dir("journal_durable");
  const std::string path = dir + "journal-j-0.jsonl";
  report::JournalWriter w(path, header());
  w.add_runs({run_log(0, 0, {"k"})});
  w.append({run_log(0, 1, {"k"})}, {kernel("k", "vadd", 0, 0, 100, 1)});
  std::vector<std::string> lines;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (lines.size() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::ifstream in(path);
    lines.clear();
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  ASSERT_EQ(lines.size(), 3u);  // the header, the names the runs line uses first, the runs line
  EXPECT_NE(lines[1].find("\"kernels\":[[0,\"vadd\",\"\"]]"), std::string::npos) << lines[1];
  // The staged run and the appended one share the line, with the record.
  EXPECT_EQ(lines[2].rfind("{\"kind\":\"runs\",\"runs\":[[0,0,[0],[]],[0,1,[0],[]]],\"records\":"
                           "[[0,0,0,0,0,1,[0,100]]]",
                           0),
            0u)
      << lines[2];
}

TEST(JournalTest, UnwritablePathIsAClearError) {
  try {
    report::JournalWriter w("/nonexistent-dir/x.jsonl", header());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write the journal '/nonexistent-dir/x.jsonl'"),
              std::string::npos);
  }
}

// A journal deleted while it is written (its output directory removed mid-sweep) would lose the
// sweep at close: the next line fails with the path and what to do, and so does finish().
TEST(JournalTest, ADeletedJournalFailsItsNextLine) {
  const std::string dir = testing::scratch_dir("journal_deleted");
  const std::string path = dir + "journal-j-0.jsonl";
  report::JournalWriter w(path, header());
  w.append({run_log(0, 0, {"k"})}, {kernel("k", "vadd", 0, 0, 100, 1)});
  w.finish();
  ASSERT_EQ(std::remove(path.c_str()), 0);
  w.append({run_log(0, 1, {"k"})}, {kernel("k", "vadd", 0, 1, 110, 2)});
  try {
    w.finish();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), report::journal_write_error(path, ENOENT));
  }
  EXPECT_NO_THROW(w.close(""));  // the sweep's error path closes it again: nothing more to say
  EXPECT_NO_THROW(w.finish());
}

TEST(JournalTest, WriteErrorsNameThePathTheErrnoAndWhatToDo) {
  EXPECT_EQ(report::journal_write_error("/mnt/full/j.jsonl", ENOSPC),
            "cannot write the journal '/mnt/full/j.jsonl': No space left on device (ENOSPC). The "
            "sweep stopped; the runs journaled before are kept and load. Free space or choose "
            "another output_prefix, then pass the journal as resume= to measure the rest.");
  EXPECT_EQ(report::journal_write_error("/j", ENOENT),
            "cannot write the journal '/j': the file was deleted while the sweep ran (ENOENT). "
            "The sweep stopped; what it measured went with the file. Measure again into an "
            "output_prefix that stays.");
  EXPECT_NE(report::journal_write_error("/j", EROFS).find("Read-only file system (EROFS)"),
            std::string::npos);
}

// What kscope wrote before the compact journal: schema 1.0's objects, from the device-free
// session (3 configs x 2 runs of regions "a" and "b", with its phases and kernel times).
const std::string kSchemaOne = testing::fixture("journal/v1_device_free.jsonl");

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The JSON result of `r` with its journal's path taken out (the only member that differs).
std::string json_without_path(const Results& r) {
  std::ostringstream out;
  r.write("json", out);
  std::string text = out.str();
  const std::string path = "\"" + r.journal_path() + "\"";
  const auto at = text.find(path);
  if (at != std::string::npos) text.erase(at, path.size());
  return text;
}

TEST(JournalTest, ASchemaOneJournalStillLoads) {
  const Results r = Results::load(kSchemaOne);
  EXPECT_TRUE(r.complete());
  EXPECT_TRUE(r.load_warnings().empty());
  ASSERT_EQ(r.processed().size(), 6u);  // 3 configs x regions "a", "b"
  EXPECT_EQ(std::count_if(r.processed().begin(), r.processed().end(),
                          [](const ProcessedRow& p) { return p.annotation == "b" && p.num_runs == 2; }),
            3);
  EXPECT_EQ(r.timeline().kernels.size(), 12u);
  EXPECT_FALSE(r.timeline().phases.empty());
}

// The same session journaled in schema 2.0 loads as the same result: tables, timeline, configs.
TEST(JournalTest, ACompactJournalLoadsAsTheSchemaOneJournalOfTheSameSession) {
  const report::JournalContents c = report::read_journal(kSchemaOne);
  const std::string path = testing::scratch_dir("journal_same") + "journal-vadd-0.jsonl";
  {
    report::JournalWriter w(path, c.data);
    w.add_phases(c.phases);
    w.append(c.runs, c.records, c.telemetry);
    w.close("");
  }
  EXPECT_NE(text_of(path).find("{\"kind\":\"names\","), std::string::npos);
  const Results compact = Results::load(path);
  const Results old = Results::load(kSchemaOne);
  EXPECT_EQ(compact.timeline().phases.size(), old.timeline().phases.size());
  EXPECT_EQ(json_without_path(compact), json_without_path(old));
}

// A journal cut at any byte (a crash, a full disk) loads every line it holds whole, and says
// that the cut one is cut short, as schema 1.0's did.
TEST(JournalTest, ACompactJournalCutAtAnyByteLoadsEveryCompleteLine) {
  const std::string dir = testing::scratch_dir("journal_cut_bytes");
  const report::JournalContents c = report::read_journal(kSchemaOne);
  const std::string whole_path = dir + "whole.jsonl";
  {
    report::JournalWriter w(whole_path, c.data);
    for (const auto& r : c.runs) {  // a line per run, each with its kernels
      std::vector<KernelRecord> records;
      for (const auto& k : c.records) {
        if (k.run == r.run) records.push_back(k);
      }
      w.append({r}, records);
    }
    w.close("");
  }
  const std::string whole = text_of(whole_path);
  const std::size_t header_end = whole.find('\n') + 1;
  const std::string cut_path = dir + "cut.jsonl";
  for (std::size_t cut = header_end; cut < whole.size(); ++cut) {
    SCOPED_TRACE("cut after byte " + std::to_string(cut));
    std::ofstream(cut_path, std::ios::binary) << whole.substr(0, cut);
    const std::size_t line_start = whole.rfind('\n', cut - 1) + 1;  // of the line cut
    const bool whole_line = cut == line_start || whole[cut] == '\n';  // (only its newline lost)
    std::ofstream(dir + "lines.jsonl", std::ios::binary)
        << whole.substr(0, whole[cut] == '\n' ? cut + 1 : line_start);
    const report::JournalContents got = report::read_journal(cut_path);
    const report::JournalContents lines = report::read_journal(dir + "lines.jsonl");
    EXPECT_EQ(got.runs.size(), lines.runs.size());
    EXPECT_EQ(got.records.size(), lines.records.size());
    EXPECT_EQ(got.phases.size(), lines.phases.size());
    if (whole_line) {
      EXPECT_TRUE(got.data.load_warnings.empty());
      continue;
    }
    const std::size_t line_no = static_cast<std::size_t>(
        std::count(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut), '\n') + 1);
    ASSERT_EQ(got.data.load_warnings.size(), 1u);
    EXPECT_EQ(got.data.load_warnings[0],
              "journal '" + cut_path + "': line " + std::to_string(line_no) +
                  " is cut short (the process ended while writing it) (the line was skipped; the "
                  "result lacks what it held)");
  }
}

// Every field of a run and a record survives the name tables and the arrays: a metric without a
// unit and one with unit "" stay two metrics, one kernel name with two mangled names two
// kernels, NaN stays NaN, and a kernel's times and stream come back as far as they were known.
TEST(JournalTest, RecordsAndRunsKeepEveryField) {
  const std::string path = testing::scratch_dir("journal_fields") + "journal-j-0.jsonl";
  KernelRecord a = kernel("k", "vadd", 0, 0, 0.1, 7);
  a.mangled = "_Z4vaddPf";
  a.device = 1;
  a.metrics.push_back({"bytes", std::nan(""), std::nullopt});
  a.metrics.push_back({"bytes", 1e20, std::string()});
  a.start_ns = 1000;
  a.end_ns = 1250;
  a.stream = 7;
  KernelRecord b = kernel("k", "vadd", 0, 1, 2.5, 8);
  b.mangled = "_Z4vaddPd";
  b.end_ns = 99;  // an end without a start
  KernelRecord c = kernel("k", "vadd", 1, 0, 3, 9);
  c.stream = 3;
  {
    report::JournalWriter w(path, header());
    w.append({run_log(0, 0, {"k"}), run_log(0, 1, {"k"}, {"k"})}, {a, b});
    w.append({run_log(1, 0, {"k"})}, {c});
    w.close("");
  }
  const report::JournalContents got = report::read_journal(path);
  ASSERT_EQ(got.runs.size(), 3u);
  EXPECT_EQ(got.runs[1].failed, std::vector<std::string>{"k"});
  EXPECT_EQ(got.runs[2].run.config, 1u);
  ASSERT_EQ(got.records.size(), 3u);
  const KernelRecord& a2 = got.records[0];
  EXPECT_EQ(a2.mangled, "_Z4vaddPf");
  EXPECT_EQ(got.records[1].mangled, "_Z4vaddPd");
  EXPECT_EQ(a2.device, 1);
  EXPECT_EQ(a2.sequence, 7u);
  ASSERT_EQ(a2.metrics.size(), 3u);
  EXPECT_EQ(a2.metrics[0].value, 0.1);
  EXPECT_EQ(a2.metrics[0].unit, std::optional<std::string>("ns"));
  EXPECT_TRUE(std::isnan(a2.metrics[1].value));
  EXPECT_EQ(a2.metrics[1].unit, std::nullopt);
  EXPECT_EQ(a2.metrics[2].value, 1e20);
  EXPECT_EQ(a2.metrics[2].unit, std::optional<std::string>(""));
  EXPECT_EQ(a2.start_ns, std::optional<std::int64_t>(1000));
  EXPECT_EQ(a2.end_ns, std::optional<std::int64_t>(1250));
  EXPECT_EQ(a2.stream, std::optional<std::uint32_t>(7));
  EXPECT_EQ(got.records[1].start_ns, std::nullopt);
  EXPECT_EQ(got.records[1].end_ns, std::optional<std::int64_t>(99));
  EXPECT_EQ(got.records[1].stream, std::nullopt);
  EXPECT_EQ(got.records[2].stream, std::optional<std::uint32_t>(3));
  EXPECT_EQ(got.records[2].start_ns, std::nullopt);
  EXPECT_EQ(got.records[2].end_ns, std::nullopt);
}

TEST(JournalTest, NotAJournal) {
  const std::string dir = testing::scratch_dir("journal_not");
  std::ofstream(dir + "x.jsonl") << "{\"kind\": \"kscope.journal\"}\n";
  EXPECT_THROW((void)Results::load(dir + "x.jsonl"), FileFormatError);
}

}  // namespace
}  // namespace kscope
