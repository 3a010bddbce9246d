// The writer registry (Results::write, output_formats) and the formats added on it: trace, md,
// html; the timeline they draw from (journal and JSON result). Existing formats keep their
// goldens through the registry.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "../core/fakes.hpp"
#include "../core/records.hpp"
#include "core/logger.hpp"
#include "core/session.hpp"
#include "golden.hpp"
#include "journal_sample.hpp"
#include "kscope/annotation.hpp"
#include "kscope/compare.hpp"
#include "kscope/errors.hpp"
#include "report/journal.hpp"
#include "report/processed_cells.hpp"
#include "sample_results.hpp"
#include "support/gpu_test.hpp"
#include "trace_check.hpp"

namespace kscope {
namespace {

using nlohmann::json;
using testing::expect_golden;
using testing::read_file;

std::string written(const Results& r, const std::string& format, const WriteOptions& o = {}) {
  std::ostringstream out;
  r.write(format, out, o);
  return out.str();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

TEST(WritersTest, RegistryListsEveryFormatInOrder) {
  std::vector<std::string> names;
  for (const auto& f : output_formats()) {
    names.push_back(f.name);
    EXPECT_EQ(f.extension.front(), '.') << f.name;
    EXPECT_FALSE(f.description.empty()) << f.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"table", "csv", "raw-csv", "findings-csv", "json",
                                             "parquet", "trace", "html", "md"}));
}

TEST(WritersTest, UnknownFormatIsInvalidArgumentNamingTheFormats) {
  const std::string dir = testing::scratch_dir("writers_unknown");
  try {
    testing::sample_results(false).write("pdf", dir + "r.pdf");
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "unknown output format 'pdf' (expected one of: table, csv, raw-csv, "
                           "findings-csv, json, parquet, trace, html, md)");
  }
  EXPECT_FALSE(std::ifstream(dir + "r.pdf").good()) << "the file is not created";
}

TEST(WritersTest, UnwritablePathIsAnErrorNamingIt) {
  try {
    testing::sample_results(false).write("md", "/nonexistent-dir/r.md");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '/nonexistent-dir/r.md': No such file or directory");
  }
}

TEST(WritersTest, ExistingFormatsThroughTheRegistryMatchTheirGoldens) {
  expect_golden("vadd_processed.csv", written(testing::sample_results(false), "csv"));
  expect_golden("vadd_raw.csv", written(testing::sample_results(false), "raw-csv"));
  expect_golden("vadd_table.txt", written(testing::sample_results(false), "table"));
  expect_golden("vadd_results.json", written(testing::sample_results(true), "json"));
}

// A session of 2 configs x 2 runs, one warm-up run, 2 replay passes, region "k" with one kernel
// per run, through the real Session into a journal.
struct TimedSession {
  std::string journal;
  Session::Output out;
};

TimedSession timed_session(const std::string& dir) {
  testing::FakeCollector collector;
  collector.passes = 2;
  testing::FakeEnvironment env;
  Options o;
  o.runs = 2;
  o.warmup_runs = 1;
  o.verbosity = Verbosity::kSilent;
  Results::Data header = testing::journal_header();
  header.options = o;
  TimedSession t;
  t.journal = dir + "journal-j-0.jsonl";
  report::JournalWriter journal(t.journal, header);
  const Logger log(o);
  Session session(collector, env, &journal, log);
  SessionInfo info{"j", 0, 2, &o, 0, dir};
  std::map<std::size_t, int> executions;  // per config: warm-up, then 2 passes per run
  t.out = session.run(info, header.configs, [&](const Config& c) {
    Annotation range("k");
    if (executions[c.index()]++ % 2 == 0) return;  // the warm-up run and every second pass
    const std::int64_t start = now_ns();
    const std::size_t before = collector.pending.size();
    collector.launch("vadd", 100.0 * static_cast<double>(c.index() + 1));
    if (collector.pending.size() > before) {
      collector.pending.back().start_ns = start;
      collector.pending.back().end_ns = start + 100 * static_cast<std::int64_t>(c.index() + 1);
      collector.pending.back().stream = 7;
    }
  });
  return t;
}

TEST(TimelineTest, HostPhasesReachTheJournalAndLoadBack) {
  const auto t = timed_session(testing::scratch_dir("timeline_journal"));
  const Results r = Results::load(t.journal);
  const auto& phases = r.timeline().phases;
  ASSERT_EQ(phases.size(), t.out.phases.size());
  std::set<std::string> names;
  bool pass1 = false, warmup = false, region = false, journal = false;
  for (const auto& p : phases) {
    names.insert(p.phase);
    EXPECT_LE(p.start_ns, p.end_ns) << p.phase;
    pass1 = pass1 || (p.phase == "benchmark" && p.pass == 1 && p.config == 1u && p.run == 1u);
    warmup = warmup || (p.warmup && p.run == 0u);
    region = region || (p.phase == "region entry" && p.annotation == "k");
    journal = journal || (p.phase == "journal" && !p.config && !p.run);
  }
  EXPECT_EQ(names, (std::set<std::string>{"environment before", "tool before", "benchmark",
                                          "synchronize", "tool after", "environment after",
                                          "journal", "region entry"}));
  EXPECT_TRUE(pass1 && warmup && region && journal);
  // 2 configs x (1 warm-up + 2 runs x 2 passes) = 10 executions of 6 laps and 1 region entry.
  std::size_t benchmarks = 0;
  for (const auto& p : phases) benchmarks += p.phase == "benchmark";
  EXPECT_EQ(benchmarks, 10u);
  ASSERT_EQ(r.timeline().kernels.size(), 4u);  // measured runs only, first pass (the fake's rule)
  EXPECT_EQ(r.timeline().kernels[0].stream, std::optional<std::uint32_t>(7));
  EXPECT_EQ(r.timeline().kernels[3].end_ns - r.timeline().kernels[3].start_ns, 200);
}

TEST(TimelineTest, ResultJsonKeepsTheTimeline) {
  const std::string dir = testing::scratch_dir("timeline_json");
  const Results r = Results::load(timed_session(dir).journal);
  r.write("json", dir + "r.json");
  const Results again = Results::load(dir + "r.json");
  ASSERT_EQ(again.timeline().phases.size(), r.timeline().phases.size());
  ASSERT_EQ(again.timeline().kernels.size(), r.timeline().kernels.size());
  const auto& a = again.timeline().phases.back();
  const auto& b = r.timeline().phases.back();
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(again.timeline().kernels[1].kernel, "vadd");
  EXPECT_EQ(again.timeline().kernels[1].stream, r.timeline().kernels[1].stream);
}

TEST(TimelineTest, FilesWithoutATimelineLoadWithAnEmptyOne) {
  EXPECT_TRUE(Results::load(testing::fixture("golden/vadd_results.json")).timeline().empty());
  EXPECT_TRUE(Results::load(testing::fixture("golden/python/journal_unfinished.jsonl")).timeline().empty());
}

// The FileFormatError of loading a result whose timeline is `timeline`, after the file's name.
std::string timeline_error(const char* dir_name, const json& timeline) {
  const std::string dir = testing::scratch_dir(dir_name);
  json doc = json::parse(testing::sample_results(false).to_json());
  doc["timeline"] = timeline;
  std::ofstream(dir + "r.json") << doc.dump();
  try {
    (void)Results::load(dir + "r.json");
  } catch (const FileFormatError& e) {
    const std::string what = e.what();
    const std::string start = "'" + dir + "r.json' does not follow the kscope result schema "
                              "(docs/output-schema.md): ";
    EXPECT_EQ(what.substr(0, start.size()), start);
    return what.substr(std::min(start.size(), what.size()));
  }
  return "no error";
}

TEST(TimelineTest, SpanEndingBeforeItStartsIsAFileFormatError) {
  EXPECT_EQ(timeline_error("timeline_bad",
                           {{"phases", {{{"phase", "benchmark"}, {"start_ns", 10}, {"end_ns", 5}}}},
                            {"kernels", json::array()}}),
            "at /timeline/phases/0/end_ns: expected an end_ns not before start_ns, found 5");
}

// A merged result's timeline (kscope::merge): config 1 was measured by part 1, on another host
// whose clock is a day ahead.
Results two_part_results(const Results& r) {
  Results::Data d = r.data();
  Timeline& t = d.timeline;
  constexpr std::int64_t kDay = 86'400'000'000'000;
  PhaseSpans phases;
  for (PhaseSpan p : t.phases) {
    if (p.config == std::optional<std::size_t>(1)) {
      p.part = 1;
      p.start_ns += kDay;
      p.end_ns += kDay;
    }
    phases.push_back(p);
  }
  KernelSpans kernels;
  for (KernelSpan k : t.kernels) {
    if (k.config == 1) {
      k.part = 1;
      k.start_ns += kDay;
      k.end_ns += kDay;
    }
    kernels.push_back(k);
  }
  t.phases = phases;
  t.kernels = kernels;
  t.parts = {"rank 0: a.json", "rank 1: b.json"};
  return Results(std::move(d));
}

TEST(TimelineTest, ResultJsonKeepsTheParts) {
  const std::string dir = testing::scratch_dir("timeline_parts");
  const Results r = two_part_results(Results::load(timed_session(dir).journal));
  r.write("json", dir + "r.json");
  const Timeline again = Results::load(dir + "r.json").timeline();
  EXPECT_EQ(again.parts, r.timeline().parts);
  ASSERT_EQ(again.kernels.size(), r.timeline().kernels.size());
  ASSERT_EQ(again.phases.size(), r.timeline().phases.size());
  for (std::size_t i = 0; i < again.kernels.size(); ++i) {
    EXPECT_EQ(again.kernels[i].part, r.timeline().kernels[i].part);
  }
  for (std::size_t i = 0; i < again.phases.size(); ++i) {
    EXPECT_EQ(again.phases[i].part, r.timeline().phases[i].part);
  }
  EXPECT_EQ(again.kernels.back().part, 1u);
}

TEST(TimelineTest, ASpanOfAPartTheTimelineDoesNotNameIsAFileFormatError) {
  EXPECT_EQ(timeline_error("timeline_bad_part",
                           {{"phases", json::array()},
                            {"kernels", {{{"annotation", "a"}, {"kernel", "k"}, {"config", 0},
                                          {"run", 0}, {"start_ns", 1}, {"end_ns", 5}, {"part", 2}}}},
                            {"parts", {"rank 0: a.json", "rank 1: b.json"}}}),
            "at /timeline/kernels/0/part: expected a part below 2 (the timeline's parts), found 2");
}

Results timed_results_with_telemetry(const std::string& dir) {
  Results::Data d = Results::load(timed_session(dir).journal).data();
  RunTelemetry t;
  t.config = 0;
  t.run = 1;
  t.cooling_wait_s = 2e-6;
  t.before = TelemetrySample{1980, 3201, 60, 30, 500.5, 0, 1.0};
  t.after = TelemetrySample{1755, 3201, 62, 28, 650.0, 0, 0.5};
  d.telemetry.push_back(t);
  d.metadata.tool = "cupti";
  return Results(std::move(d));
}

// The result is streamed (report/json_stream), row by row: its text is what nlohmann's dump(1)
// makes of the same document, for every member a result can have.
TEST(JsonResultTest, TheStreamedDocumentIsTheTreesLayout) {
  Results::Data d = two_part_results(timed_results_with_telemetry(testing::scratch_dir("json_stream"))).data();
  d.stops.push_back({0, 2, "target", 0.0049, 1.5e-5});
  d.failures.push_back({1, 0, true, "ValueError", "bad \"size\"\n"});
  Finding f;
  f.check = "memcheck";
  f.host_stack = {"main (a.out+0x10)"};
  f.config = 0;
  d.findings.push_back(f);
  d.configs[0].set_label("n=10, s=\u00e9");
  for (const Results& r : {Results(std::move(d)), testing::sample_results(true),
                           Results::load(testing::fixture("golden/info_collectors_results.json"))}) {
    const std::string text = written(r, "json");
    EXPECT_EQ(text, nlohmann::ordered_json::parse(text).dump(1) + "\n");
    EXPECT_EQ(r.to_json() + "\n", text);
  }
}

TEST(TraceTest, RecordedTimelineFollowsTheTraceEventFormat) {
  const Results r = timed_results_with_telemetry(testing::scratch_dir("trace_recorded"));
  const json doc = json::parse(written(r, "trace"));
  EXPECT_EQ(testing::trace_problems(doc), std::vector<std::string>{});
  if (std::getenv("DUMP")) std::cerr << doc.dump(0);
  std::multiset<std::string> names;
  std::set<std::string> threads;
  for (const auto& e : doc["traceEvents"]) {
    names.insert(e["name"].get<std::string>());
    if (e["name"] == "thread_name") threads.insert(e["args"]["name"].get<std::string>());
  }
  for (const char* n : {"config 0: n=10", "config 1: n=20", "run 0", "warm-up run 0", "replay pass 1",
                        "L2 flush: k", "journal write", "thermal pause", "benchmark", "vadd",
                        "SM clock", "GPU temperature", "Power"}) {
    EXPECT_GT(names.count(n), 0u) << n;
  }
  EXPECT_EQ(names.count("vadd"), 4u);
  EXPECT_EQ(names.count("config 0: n=10"), 1u);
  EXPECT_EQ(names.count("SM clock"), 2u);  // before and after run 1 of config 0
  EXPECT_EQ(threads, (std::set<std::string>{"session phases", "stream 7"}));
  EXPECT_EQ(doc["otherData"]["timeline"], "recorded (host steady clock)");
  // A kernel carries its annotation's metrics of that run.
  for (const auto& e : doc["traceEvents"]) {
    if (e["name"] != "vadd" || e["args"]["config"] != 1 || e["args"]["run"] != 0) continue;
    EXPECT_EQ(e["args"]["annotation"], "k");
    EXPECT_EQ(e["args"]["duration_ns"], 200);
    EXPECT_DOUBLE_EQ(e["args"]["metrics"]["gpu__time_duration.sum (ns)"].get<double>(), 200.0);
    EXPECT_EQ(e["tid"], 7);
  }
}

TEST(TraceTest, EachPartOfAMergedResultIsProcessesOfItsOwn) {
  const Results r = two_part_results(timed_results_with_telemetry(testing::scratch_dir("trace_parts")));
  const json doc = json::parse(written(r, "trace"));
  EXPECT_EQ(testing::trace_problems(doc), std::vector<std::string>{});
  std::set<std::string> processes;
  std::map<int, std::size_t> kernels;  // pid -> kernels
  std::map<int, double> first_ts;      // pid -> earliest slice
  for (const auto& e : doc["traceEvents"]) {
    if (e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
    if (e.value("cat", "") == "kernel") ++kernels[e["pid"].get<int>()];
    if (e["ph"] == "X") {
      const int pid = e["pid"];
      first_ts[pid] = first_ts.count(pid) ? std::min(first_ts[pid], e["ts"].get<double>()) : e["ts"].get<double>();
    }
  }
  EXPECT_EQ(processes, (std::set<std::string>{
                           "kscope host: j (rank 0: a.json)", "kscope host: j (rank 1: b.json)",
                           "GPU 0: NVIDIA H200 (rank 0: a.json)", "GPU 0: NVIDIA H200 (rank 1: b.json)",
                           "GPU telemetry (NVML) (rank 0: a.json)"}));
  EXPECT_EQ(kernels, (std::map<int, std::size_t>{{2, 2}, {1002, 2}}));
  // Each part's times start at its own first span: the day between the hosts' clocks is gone.
  EXPECT_DOUBLE_EQ(first_ts.at(1), 0.0);
  EXPECT_DOUBLE_EQ(first_ts.at(1001), 0.0);
}

TEST(TraceTest, SavedResultWithoutATimelineGetsSyntheticTimes) {
  const json doc = json::parse(written(testing::sample_results(false), "trace"));
  EXPECT_EQ(testing::trace_problems(doc), std::vector<std::string>{});
  EXPECT_EQ(doc["otherData"]["timeline"],
            "synthetic: the result holds no timestamps, runs are placed end to end for their "
            "measured durations");
  std::size_t kernels = 0, runs = 0;
  for (const auto& e : doc["traceEvents"]) {
    kernels += e.value("cat", "") == "kernel";
    runs += e.value("cat", "") == "run";
  }
  EXPECT_EQ(kernels, 12u);  // 2 configs x 3 runs x 2 annotations
  EXPECT_EQ(runs, 6u);
}

TEST(TraceTest, ProblemsAreFound) {
  // The checker itself: a slice leaving its parent, time going back, a missing field.
  const json bad = json::parse(R"({"traceEvents": [
    {"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 5, "dur": 10},
    {"name": "c", "ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
    {"name": "d", "ph": "C", "pid": 3, "tid": 0, "ts": 1}]})");
  EXPECT_EQ(testing::trace_problems(bad),
            (std::vector<std::string>{"event 1 (b) overlaps its enclosing slice",
                                      "event 2 goes back in time on its track",
                                      "event 3 (C) has no args"}));
}

TEST(MarkdownTest, MetadataAndTheProcessedTable) {
  const std::string md = written(testing::sample_results(false), "md");
  EXPECT_EQ(md.rfind("## kscope: vadd #0\n", 0), 0u) << md;
  EXPECT_TRUE(has(md, "| GPU | NVIDIA H200 |\n"));
  EXPECT_TRUE(has(md, "| Annotation | n | dtype | Metric | Unit | Avg | Median | StdDev | Min | Max | Runs | RSD% | Stable |\n"
                      "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"));
  EXPECT_TRUE(has(md, "| baseline | 1024 | f32 | gpu__time_duration.sum | ns | 2010.00 | 2010.00 | 10.0000 | 2000.00 | 2020.00 | 3 | 0.498 | yes |\n"));
  EXPECT_TRUE(has(md, "<details><summary>Options</summary>"));
  EXPECT_FALSE(has(md, "Compared with"));
}

// A report is shared: its options table shows where files were on the measuring machine only
// when asked (WriteOptions::full_paths). Relative paths are the user's own and stay.
TEST(ReportPathsTest, AbsolutePathsAreShortenedUnlessAskedFor) {
  Results::Data d = testing::sample_results(false).data();
  d.options.output_prefix = "/home/alice/runs/kscope_a1b2/";
  d.options.resume = "/home/alice/runs/kscope_a1b2/journal-vadd-0.jsonl";
  d.options.shard_balance = "before/vadd.json";
  d.options.reexec_argv = {"/home/alice/bin/bench", "--n", "/data/in.bin"};
  const Results r(std::move(d));
  for (const char* format : {"md", "html"}) {
    const std::string text = written(r, format);
    EXPECT_FALSE(has(text, "/home/alice")) << format;
    EXPECT_FALSE(has(text, "/data/")) << format;
    EXPECT_TRUE(has(text, ".../kscope_a1b2/")) << format;
    EXPECT_TRUE(has(text, ".../journal-vadd-0.jsonl")) << format;
    EXPECT_TRUE(has(text, "before/vadd.json")) << format;
    EXPECT_TRUE(has(text, ".../bench")) << format;  // reexec_argv's program and its input
    EXPECT_TRUE(has(text, ".../in.bin")) << format;
    WriteOptions full;
    full.full_paths = true;
    const std::string asked = written(r, format, full);
    EXPECT_TRUE(has(asked, "/home/alice/runs/kscope_a1b2/journal-vadd-0.jsonl")) << format;
    EXPECT_TRUE(has(asked, "/home/alice/bin/bench")) << format;
  }
  // The JSON result is data, not a report: it keeps them.
  EXPECT_TRUE(has(written(r, "json"), "/home/alice/runs/kscope_a1b2/"));
}

TEST(ReportPathsTest, LocalPathKeepsTheLastPart) {
  EXPECT_EQ(report::local_path("/tmp/kscope_x/"), ".../kscope_x/");
  EXPECT_EQ(report::local_path("/tmp/out/run-"), ".../run-");
  EXPECT_EQ(report::local_path("out/run-"), "out/run-");
  EXPECT_EQ(report::local_path(""), "");
  EXPECT_EQ(report::local_path("/"), "/");
}

TEST(MarkdownTest, PipesInNamesAreEscaped) {
  Results::Data d = testing::sample_results(false).data();
  d.processed[0].annotation = "a|b";
  EXPECT_TRUE(has(written(Results(d), "md"), "| a\\|b | 1024 |"));
}

// The compare table of html and md is kscope compare's: the same engine on the raw runs, the
// same verdicts. A result whose processed means alone were edited compares as its runs do.
TEST(MarkdownTest, TheCompareTableIsKscopeComparesOnTheRuns) {
  const Results base = testing::sample_results(false);
  Results::Data d = base.data();
  for (auto& raw : d.raw) {
    if (raw.annotation == "fast" && raw.metric == kTimeMetric) raw.value *= 1.3;
  }
  for (auto& p : d.processed) p.avg *= 2;  // not what compare reads
  const Results next(std::move(d));
  WriteOptions o;
  o.compare = &base;
  const std::string md = written(next, "md", o);
  EXPECT_TRUE(has(md, "### Compared with vadd #0 (NVIDIA H200)\n\nThe verdicts of `kscope "
                      "compare BASELINE RESULT`.\n\n" + compare(base, next).to_markdown()))
      << md;
  EXPECT_TRUE(has(md, "| fast | n=1024, dtype=f32 | gpu__time_duration.sum | ns | 1010.00 | "
                      "1313.00 | 1.300 | [1.271, 1.330] | +30.0% |"))
      << md;
  const std::string html = written(next, "html", o);
  EXPECT_TRUE(has(html, compare(base, next).to_html_table())) << html;
}

TEST(HtmlTest, SelfContainedWithOnePlotPerMetric) {
  const Results r = testing::sample_results(false);
  const std::string html = written(r, "html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n", 0), 0u);
  EXPECT_TRUE(has(html, "</html>\n"));
  std::size_t svgs = 0;
  for (auto at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1)) ++svgs;
  EXPECT_EQ(svgs, 2u);  // gpu__time_duration.sum and bandwidth
  EXPECT_TRUE(has(html, "<title>bandwidth</title>"));
  EXPECT_TRUE(has(html, "gpu__time_duration.sum (ns) (avg: 3 runs)"));
  EXPECT_TRUE(has(html, "<table id=\"processed\">"));
  EXPECT_TRUE(has(html, "<th>GPU</th><td>NVIDIA H200</td>"));
  for (const char* external : {"http:", "https:", "src=", "<script", "<link", "url(", "@import"}) {
    EXPECT_FALSE(has(html, external)) << external;
  }
}

TEST(HtmlTest, NamesAreEscapedAndFindingsShown) {
  Results::Data d = testing::sample_results(false).data();
  d.name = "<b>&x";
  d.metadata.tool = "sanitizer";
  d.checked = true;
  Finding f;
  f.check = "memcheck";
  f.kind = "Invalid __global__ write of size 4 bytes";
  f.kernel = "oob<int>";
  f.annotation = "k";
  f.config = 0;
  f.attribution = "annotation";
  d.findings.push_back(f);
  const std::string html = written(Results(d), "html");
  EXPECT_TRUE(has(html, "<h1>kscope: &lt;b&gt;&amp;x #0</h1>"));
  EXPECT_TRUE(has(html, "<table id=\"findings\">"));
  EXPECT_TRUE(has(html, "<td>oob&lt;int&gt;</td>"));
  EXPECT_FALSE(has(html, "<svg "));  // a check has no measurements to plot
}

TEST(HtmlTest, FailedConfigsAreSummarisedInHtmlAndMarkdown) {
  Results::Data d = testing::sample_results(false).data();
  d.failures.push_back(ConfigFailure{1, 2, false, "ValueError", "n too <large>"});
  const Results r(d);
  const std::string html = written(r, "html");
  EXPECT_TRUE(has(html, "<pre class=\"warn\" id=\"failed\">1 of 2 configs failed")) << html;
  EXPECT_TRUE(has(html, "n too &lt;large&gt;"));
  const std::string md = written(r, "md");
  EXPECT_TRUE(has(md, "```\n1 of 2 configs failed")) << md;
  EXPECT_FALSE(has(written(testing::sample_results(false), "md"), "configs failed"));
}

TEST(HtmlTest, RecordedTimelineAddsHostTimePerPhase) {
  const Results r = Results::load(timed_session(testing::scratch_dir("html_phases")).journal);
  const std::string html = written(r, "html");
  EXPECT_TRUE(has(html, "<h2>Host time per phase</h2>"));
  EXPECT_TRUE(has(html, "<td>benchmark</td><td class=\"num\">"));
  EXPECT_FALSE(has(written(testing::sample_results(false), "html"), "Host time per phase"));
}

}  // namespace
}  // namespace kscope
