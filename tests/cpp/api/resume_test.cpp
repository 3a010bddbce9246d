// Options::resume (api/resume.cpp): the journal of an interrupted sweep is split into the configs
// it holds complete (carried over) and those left, and the resumed result equals one
// uninterrupted sweep; a missing journal or one of another sweep is refused.
#include "api/resume.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/logger.hpp"
#include "sweep_fixture.hpp"

namespace kscope {
namespace {
using testing::kSweepConfigs;
using testing::run_sweep;
using testing::sweep_configs;
using testing::sweep_options;

// Runs the sweep into `dir` with config 3 throwing (the exception ends the sweep) and returns
// its journal.
std::string interrupted_journal(const std::string& dir) {
  const Options o = sweep_options(dir);
  EXPECT_THROW((void)run_sweep(o, 3), std::runtime_error);
  const std::string journal = testing::journal_in(o.output_prefix);
  EXPECT_FALSE(journal.empty()) << "no journal in " << o.output_prefix;
  return journal;
}

std::string resume_error(const Options& o) {
  try {
    (void)plan_resume("sweep", sweep_configs(), o, Logger(o));
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no error";
}

TEST(ResumeTest, TheCompleteConfigsAreCarriedAndTheRestMeasured) {
  Options o = sweep_options("resume_plan");
  o.resume = interrupted_journal("resume_plan_first");
  const ResumePlan plan = plan_resume("sweep", sweep_configs(), o, Logger(o));
  std::vector<std::size_t> left;
  for (const auto& c : plan.to_measure) left.push_back(c.index());
  EXPECT_EQ(left, (std::vector<std::size_t>{3, 4, 5}));
  std::set<std::size_t> carried;
  for (const auto& r : plan.carried.runs) carried.insert(r.run.config);
  EXPECT_EQ(carried, (std::set<std::size_t>{0, 1, 2}));
  EXPECT_EQ(plan.carried.runs.size(), 3u * 3u);     // 3 configs x 3 measured runs
  EXPECT_EQ(plan.carried.records.size(), 3u * 3u);  // one kernel each
}

TEST(ResumeTest, TheResumedResultEqualsAnUninterruptedSweep) {
  const Results whole = run_sweep(sweep_options("resume_whole"));
  Options o = sweep_options("resume_resumed");
  o.resume = interrupted_journal("resume_first");
  const Results resumed = run_sweep(o);
  testing::expect_same_tables(resumed, whole);
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Writes the first `count` of `lines` to `path`, which it returns: a journal cut after a line.
std::string first_lines(const std::vector<std::string>& lines, std::size_t count,
                        const std::string& path) {
  std::ofstream out(path);
  for (std::size_t i = 0; i < count; ++i) out << lines[i] << '\n';
  return path;
}

// Options journaling every config as it ends (on_config_error "skip"): a journal of many lines.
Options line_per_config(const std::string& dir) {
  Options o = sweep_options(dir);
  o.on_config_error = "skip";
  return o;
}

// This kscope's journal (schema 2.0: a "names" line before the first line using them, runs and
// records as arrays of indices), cut after any of its lines, resumes to the whole sweep.
TEST(ResumeTest, ACompactJournalResumesRightWhereverItIsCut) {
  const Options first = line_per_config("resume_compact");
  const Results whole = run_sweep(first);
  const std::vector<std::string> lines = lines_of(testing::journal_in(first.output_prefix));
  ASSERT_GE(lines.size(), 5u);  // the header, names, lines of runs, the end
  EXPECT_NE(lines[0].find("\"schema_version\":\"2.0\""), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("{\"kind\":\"names\",", 0), 0u) << lines[1];
  for (std::size_t cut = 1; cut < lines.size(); ++cut) {
    SCOPED_TRACE("the journal cut after line " + std::to_string(cut));
    Options o = line_per_config("resume_compact_" + std::to_string(cut));
    o.resume = first_lines(lines, cut, o.output_prefix + "cut.jsonl");
    testing::expect_same_tables(run_sweep(o), whole);
  }
}

// A collector that decodes in batches (the range profiler's) hands over a flush's records at a
// later flush: a process killed between the two left a journal that ends there. Cut after any
// of its lines, the journal carries only configs whose runs all have their kernel, and the
// resumed sweep measures the rest and equals the whole one.
TEST(ResumeTest, AJournalOfRecordsDecodedLaterResumesRightWhereverItIsCut) {
  const Options first = line_per_config("resume_late");
  const Results whole = run_sweep(first, kSweepConfigs, true);
  const std::vector<std::string> lines = lines_of(testing::journal_in(first.output_prefix));
  ASSERT_GE(lines.size(), 5u);  // the header, lines of runs, the end
  for (std::size_t cut = 1; cut < lines.size(); ++cut) {
    SCOPED_TRACE("the journal cut after line " + std::to_string(cut));
    Options o = line_per_config("resume_late_" + std::to_string(cut));
    o.resume = first_lines(lines, cut, o.output_prefix + "cut.jsonl");
    const ResumePlan plan = plan_resume("sweep", sweep_configs(), o, Logger(o));
    std::multiset<std::pair<std::size_t, std::size_t>> kernels;
    for (const auto& k : plan.carried.records) kernels.insert({k.run.config, k.run.run});
    EXPECT_EQ(plan.carried.records.size(), plan.carried.runs.size());  // one kernel a run
    for (const auto& r : plan.carried.runs) {
      EXPECT_EQ(kernels.count({r.run.config, r.run.run}), 1u)
          << "config " << r.run.config << " run " << r.run.run;
    }
    testing::expect_same_tables(run_sweep(o, kSweepConfigs, true), whole);
  }
}

TEST(ResumeTest, MergeResumedPutsTheCarriedPartInFront) {
  Options o = sweep_options("resume_merge");
  o.resume = interrupted_journal("resume_merge_first");
  ResumePlan plan = plan_resume("sweep", sweep_configs(), o, Logger(o));
  Session::Output measured;
  RunLog later;
  later.run.config = 4;
  measured.runs.push_back(later);
  const Session::Output out = merge_resumed(std::move(plan), std::move(measured));
  ASSERT_EQ(out.runs.size(), 3u * 3u + 1u);
  EXPECT_EQ(out.runs.front().run.config, 0u);
  EXPECT_EQ(out.runs.back().run.config, 4u);
}

TEST(ResumeTest, AMissingJournalIsRefused) {
  Options o = sweep_options("resume_missing");
  o.resume = o.output_prefix + "nothing.jsonl";
  EXPECT_EQ(resume_error(o),
            "Invalid resume '" + o.resume +
                "': no such file. Give the journal an earlier run of this sweep wrote (its path "
                "is printed as \"Journal: ...\" when a session starts).");
}

TEST(ResumeTest, AJournalOfAnotherSweepIsRefused) {
  Options o = sweep_options("resume_other");
  o.resume = interrupted_journal("resume_other_first");
  o.runs = 5;
  EXPECT_EQ(resume_error(o),
            "Invalid resume '" + o.resume +
                "': the journal was written with runs=3, this session has runs=5. Resume with "
                "the session, configs and options that wrote the journal, or leave resume "
                "empty to measure the sweep anew.");
}

}  // namespace
}  // namespace kscope
