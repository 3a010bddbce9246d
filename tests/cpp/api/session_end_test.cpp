// end_session (api/session_tables.cpp): the one ending of the in-process and the external
// sessions. It puts a resumed journal's carried part in front of what was measured, builds the
// tables, waits for the journal, warns of throttled runs and writes the CSV files.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/output_prefix.hpp"
#include "api/session_tables.hpp"
#include "sweep_fixture.hpp"

namespace kscope {
namespace {
using testing::sweep_configs;
using testing::sweep_options;

constexpr int kRuns = 2;

// The runs of `configs` as a tool hands them over: one "region" kernel of 100 + config ns a run.
Session::Output measured(const std::vector<std::size_t>& configs) {
  Session::Output out;
  for (const std::size_t c : configs) {
    for (int r = 0; r < kRuns; ++r) {
      const RunId run{c, static_cast<std::size_t>(r), false};
      out.runs.push_back({run, {"region"}, {}});
      KernelRecord k;
      k.annotation = "region";
      k.kernel = k.mangled = "k";
      k.run = run;
      k.metrics.push_back({kTimeMetric, 100.0 + static_cast<double>(c), std::string("ns")});
      out.records.push_back(k);
    }
  }
  return out;
}

struct Ending {
  Options options;
  std::string prefix;
  Results::Data data;
  std::unique_ptr<report::JournalWriter> journal;
};

// A session "end" of two configs whose journal is open (with what `resume` carries over).
Ending start(const std::string& dir, const ResumePlan* resume = nullptr) {
  Ending e;
  e.options = sweep_options(dir);
  e.options.runs = kRuns;
  e.options.output_csv = true;
  e.prefix = resolve_output_prefix(e.options.output_prefix);
  e.data = session_data("end", 0, e.options, sweep_configs(2));
  e.data.journal_path = e.prefix + "journal-end-0.jsonl";
  e.journal = open_journal(e.data, resume);
  e.journal->close("");
  return e;
}

std::vector<std::size_t> raw_configs(const Results& r) {
  std::vector<std::size_t> out;
  for (const auto& row : r.raw()) out.push_back(row.config);
  return out;
}

TEST(SessionEndTest, TheTablesAndTheCsvFilesHoldWhatWasMeasured) {
  Ending e = start("session_end_plain");
  Session::Output out = measured({0, 1});
  HostTimes times;
  const Results r = end_session(std::move(e.data), out, nullptr, *e.journal, e.prefix,
                                Logger(e.options), &times);
  EXPECT_EQ(raw_configs(r), (std::vector<std::size_t>{0, 0, 1, 1}));
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_DOUBLE_EQ(r.processed()[1].avg, 101.0);
  EXPECT_TRUE(std::filesystem::exists(e.prefix + "profiled_data-end-0.csv"));
  EXPECT_TRUE(std::filesystem::exists(e.prefix + "processed_data-end-0.csv"));
  const std::string summary = times.fixed_cost_summary();
  for (const char* step : {"tables", "journal finish", "csv"}) {
    EXPECT_NE(summary.find(step), std::string::npos) << summary;
  }
}

TEST(SessionEndTest, WhatTheResumedJournalCarriedComesFirstInSweepOrder) {
  ResumePlan resume;
  resume.carried = measured({0});
  resume.to_measure = {sweep_configs(2)[1]};
  Ending e = start("session_end_resumed", &resume);
  Session::Output out = measured({1});
  const Results r =
      end_session(std::move(e.data), out, &resume, *e.journal, e.prefix, Logger(e.options));
  EXPECT_EQ(raw_configs(r), (std::vector<std::size_t>{0, 0, 1, 1}));
  ASSERT_EQ(r.processed().size(), 2u);
  EXPECT_DOUBLE_EQ(r.processed()[0].avg, 100.0);
}

TEST(SessionEndTest, ThrottledRunsAreWarnedOf) {
  Ending e = start("session_end_throttled");
  std::vector<std::string> warnings;
  e.options.on_warning = [&](std::string_view w) { warnings.emplace_back(w); };
  RunTelemetry t;
  t.config = 1;
  t.before = TelemetrySample{};
  t.before->clock_event_reasons = 0x20;  // thermal slowdown
  e.data.telemetry = {t};
  Session::Output out = measured({0, 1});
  (void)end_session(std::move(e.data), out, nullptr, *e.journal, e.prefix, Logger(e.options));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].rfind("the GPU slowed down for power or heat during runs of config 1 "
                              "(n=1): 1 of 1 runs, reasons 0x20.",
                              0),
            0u)
      << warnings[0];
}

}  // namespace
}  // namespace kscope
