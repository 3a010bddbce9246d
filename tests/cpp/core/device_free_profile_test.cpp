// profile() without a device (api/device_free_session.hpp) with the real journal: its last
// "runs" line is encoded on the journal's thread from the session's own records, which it shares,
// while the tables are built, so it must hold every record however the call ends.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api/device_free_session.hpp"
#include "collect/tool_registry.hpp"
#include "fakes.hpp"
#include "kscope/annotation.hpp"
#include "report/journal.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

constexpr std::size_t kConfigs = 20;
constexpr int kRuns = 5;

std::vector<Config> sweep() {
  std::vector<Config> out;
  for (std::size_t c = 0; c < kConfigs; ++c) {
    out.emplace_back(std::vector<Value>{static_cast<int>(c)}, std::vector<std::string>{"n"});
  }
  return out;
}

Options options(const std::string& dir) {
  Options o;
  o.runs = kRuns;
  o.verbosity = Verbosity::kSilent;
  o.thermal.mode = "off";
  o.output_prefix = testing::scratch_dir(dir);
  return o;
}

// Each run's annotation launches `kernels` kernels; the count rules are checked at the tables.
Results profile_kernels(const Options& o, int kernels) {
  auto collector = std::make_unique<testing::FakeCollector>();
  testing::FakeCollector* tool = collector.get();
  tool->complete_flushes = false;
  return profile_without_device("last_line", sweep(), [tool, kernels](const Config&) {
    Annotation a("region");
    for (int k = 0; k < kernels; ++k) tool->launch("k" + std::to_string(k), 100.0 + k);
  }, o, std::move(collector));
}

TEST(DeviceFreeProfileTest, TheLastJournalLineHoldsEveryRecord) {
  const Options o = options("device_free_last_line");
  const Results r = profile_kernels(o, 1);
  EXPECT_EQ(r.raw().size(), kConfigs * kRuns);
  const auto journal = report::read_journal(o.output_prefix + "journal-last_line-0.jsonl");
  EXPECT_EQ(journal.records.size(), kConfigs * kRuns);
  EXPECT_EQ(journal.runs.size(), kConfigs * kRuns);
  EXPECT_TRUE(journal.data.complete);
}

TEST(DeviceFreeProfileTest, AnErrorOfTheTablesLeavesTheJournalWithEveryRecord) {
  const Options o = options("device_free_tables_error");
  try {
    (void)profile_kernels(o, 2);
    FAIL() << "two kernels in one annotation without combine_kernel_metrics";
  } catch (const ExtractionError& e) {
    EXPECT_NE(std::string(e.what()).find("More than one (total=2) kernel"), std::string::npos)
        << e.what();
  }
  const auto journal = report::read_journal(o.output_prefix + "journal-last_line-0.jsonl");
  EXPECT_EQ(journal.records.size(), 2 * kConfigs * kRuns);
  EXPECT_EQ(journal.runs.size(), kConfigs * kRuns);
}

// Which definition made the durations is part of the result: the tool names it from the
// options, and the JSON result carries it through load.
TEST(DeviceFreeProfileTest, TheResultRecordsItsDurationDefinition) {
  const Options o = options("device_free_definition");
  const Results r = profile_kernels(o, 1);
  EXPECT_EQ(r.metadata().duration_definition, "activity");
  r.write_json(o.output_prefix + "r.json");
  EXPECT_EQ(Results::load(o.output_prefix + "r.json").metadata().duration_definition, "activity");
  EXPECT_EQ(report::read_journal(o.output_prefix + "journal-last_line-0.jsonl")
                .data.metadata.duration_definition,
            "activity");
}

TEST(DeviceFreeProfileTest, EachToolNamesTheDefinitionOfItsDurations) {
  auto definition = [](const std::string& tool, auto change) {
    Options o;
    o.tool = tool;
    change(o);
    return find_tool(tool).duration_definition(o);
  };
  auto as_is = [](Options&) {};
  EXPECT_EQ(definition("cupti", as_is), "activity");
  EXPECT_EQ(definition("cupti", [](Options& o) { o.duration_source = "profiler"; }), "profiler");
  EXPECT_EQ(definition("cupti", [](Options& o) { o.duration_source = "events"; }), "events");
  EXPECT_EQ(definition("cupti", [](Options& o) { o.metrics.push_back("dram__bytes_read.sum"); }),
            "profiler");  // any counter selects the profiler's duration too
  EXPECT_EQ(definition("cupti", [](Options& o) { o.replay_mode = "range"; }), "profiler");
  EXPECT_EQ(definition("cupti", [](Options& o) { o.metrics = {"dram__bytes_read.sum"}; }), "");
  EXPECT_EQ(definition("ncu", as_is), "ncu");
  EXPECT_EQ(definition("ncu", [](Options& o) { o.metrics = {"dram__bytes_read.sum"}; }), "");
  EXPECT_EQ(find_tool("sanitizer").duration_definition, nullptr);  // it measures nothing
}

}  // namespace
}  // namespace kscope
