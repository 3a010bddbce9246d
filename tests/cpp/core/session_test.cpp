#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "core/annotation_registry.hpp"
#include "core/logger.hpp"
#include "core/session.hpp"
#include "fakes.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {
using testing::FakeCollector;
using testing::FakeEnvironment;
using testing::RecordingSink;

Options silent(int runs, int warmup = 0) {
  Options o;
  o.runs = runs;
  o.warmup_runs = warmup;
  o.verbosity = Verbosity::kSilent;
  return o;
}

using Harness = testing::SessionHarness<>;

TEST(SessionTest, RunsConfigsTimesRunsAfterWarmups) {
  Harness h;
  int calls = 0;
  const auto out = h.run(silent(3, 1), configs({1, 2}), [&](const Config& c) {
    ++calls;
    Annotation a("k");
    h.collector.launch("kern", 10.0 * (c.index() + 1));
  });
  EXPECT_EQ(calls, 8);  // 2 configs x (1 warm-up + 3 runs)
  EXPECT_EQ(out.records.size(), 6u);
  EXPECT_EQ(out.runs.size(), 6u);
  EXPECT_EQ(h.env.before, 8);
  EXPECT_EQ(h.env.syncs, 8);
  EXPECT_EQ(out.runs[3].run.config, 1u);
  EXPECT_EQ(out.runs[3].entered, std::vector<std::string>{"k"});
}

TEST(SessionTest, JournalGetsEveryConfigThatTakesAtLeastATenthOfASecond) {
  Harness h;
  (void)h.run(silent(1), configs({1, 2}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(110));
  });
  EXPECT_GE(h.sink.appends, 2);  // one per config (the last may share the final write)
  EXPECT_EQ(h.sink.runs.size(), 2u);
  EXPECT_TRUE(h.sink.closed);
}

TEST(SessionTest, AConfigBreakingTheKernelCountRuleStopsTheSweepWhenItIsMeasured) {
  // nsight-python's rule (one kernel per annotation) checked as each config's records arrive:
  // the sweep stops at config 1, config 2 never runs, and the journal is closed with the error.
  Harness h;
  std::vector<std::size_t> called;
  try {
    (void)h.run(silent(2), configs({1, 2, 3}), [&](const Config& c) {
      called.push_back(c.index());
      Annotation a("mm");
      h.collector.launch("gemm", 1);
      if (c.index() == 1) h.collector.launch("reduce", 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(60));
    });
    FAIL() << "expected ExtractionError";
  } catch (const ExtractionError& e) {
    const std::string msg = e.what();
    // The first run that breaks the rule is named (runs checked in order).
    EXPECT_EQ(msg.rfind("Expect same number of kernels per run. Got average of 1.333333333 per run "
                        "in annotation 'mm':\n  1 kernel(s) in 2 run(s), e.g. config 0 (arg0=1) run "
                        "0: gemm\n  2 kernel(s) in 1 run(s), e.g. config 1 (arg0=2) run 0: gemm, "
                        "reduce\n",
                        0),
              0u)
        << msg;
    EXPECT_EQ(h.sink.close_error, msg);
  }
  EXPECT_EQ(called, (std::vector<std::size_t>{0, 0, 1, 1}));
}

TEST(SessionTest, RunsOfACollectorDecodingInBatchesAreCheckedOnlyAfterTheSweep) {
  // A collector whose flush() may hold back records of finished runs (the range profiler's
  // batches): a run without its records must not look like a run without kernels.
  Harness h;
  h.collector.complete_flushes = false;
  int held = 0;
  h.collector.hold = [&] { return held++ < 2; };  // the first two flushes hand over nothing
  const auto out = h.run(silent(2), configs({1, 2, 3}), [&](const Config&) {
    Annotation a("mm");
    h.collector.launch("gemm", 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
  });
  EXPECT_GE(held, 2);
  EXPECT_EQ(out.records.size(), 6u);
}

// Checks every line it is handed (the staged runs and those of an append, with its records):
// each run it has must have its kernel among the records it has, and each record its run.
class LineCheckingSink : public RecordingSink {
 public:
  void add_runs(std::vector<RunLog> r) override {
    staged_.insert(staged_.end(), r.begin(), r.end());
  }
  void append(const std::vector<RunLog>& r, RecordSlice k) override {
    line(r, k.begin(), k.size());
  }
  std::vector<std::string> broken;  // "run 0.1 without its kernel", "kernel of run 0.1 without it"

 private:
  void line(const std::vector<RunLog>& r, const KernelRecord* k, std::size_t n) {
    ++appends;
    staged_.insert(staged_.end(), r.begin(), r.end());
    runs.insert(runs.end(), staged_.begin(), staged_.end());
    staged_.clear();
    records.insert(records.end(), k, k + n);
    const auto name = [](const RunId& id) {
      return std::to_string(id.config) + "." + std::to_string(id.run);
    };
    for (const auto& log : runs) {
      if (std::none_of(records.begin(), records.end(),
                       [&](const KernelRecord& x) { return x.run == log.run; })) {
        broken.push_back("line " + std::to_string(appends) + ": run " + name(log.run) +
                         " without its kernel");
      }
    }
    for (const auto& x : records) {
      if (std::none_of(runs.begin(), runs.end(), [&](const RunLog& l) { return l.run == x.run; })) {
        broken.push_back("line " + std::to_string(appends) + ": the kernel of run " +
                         name(x.run) + " without it");
      }
    }
  }
  std::vector<RunLog> staged_;
};

TEST(SessionTest, ARunOfACollectorDecodingInBatchesReachesTheJournalOnlyWithItsRecords) {
  // Each flush's records arrive at the next flush (the range profiler's batches). A journal line
  // holding runs whose kernels come later would resume as runs without kernels.
  testing::SessionHarness<LineCheckingSink> h;
  h.collector.complete_flushes = false;
  h.collector.one_flush_late = true;
  Options o = silent(2);
  o.on_config_error = "skip";  // a write after every config
  const auto out = h.run(o, configs({1, 2, 3}), [&](const Config&) {
    Annotation a("mm");
    h.collector.launch("gemm", 1);
  });
  EXPECT_EQ(h.sink.broken, std::vector<std::string>{});
  EXPECT_GE(h.sink.appends, 3);  // configs 0 and 1 with the next config's write, 2 at the end
  EXPECT_EQ(h.sink.runs.size(), 6u);
  EXPECT_EQ(h.sink.records.size(), 6u);
  EXPECT_EQ(out.runs.size(), 6u);
  EXPECT_EQ(out.records.size(), 6u);
}

TEST(SessionTest, ARunWithoutKernelsWaitsForTheNextRunThatHasSome) {
  // Without a record of it, a run is complete once a record of a later run arrived.
  testing::SessionHarness<> h;
  h.collector.complete_flushes = false;
  Options o = silent(1);
  o.on_config_error = "skip";
  std::vector<std::size_t> journaled;  // the sink's runs after each config's write
  (void)h.run(o, configs({1, 2, 3}), [&](const Config& c) {
    journaled.push_back(h.sink.runs.size());  // what the write after the config before left
    Annotation a("mm");
    if (c.index() != 0) h.collector.launch("gemm", 1);
  });
  EXPECT_EQ(journaled, (std::vector<std::size_t>{0, 0, 2}));
  EXPECT_EQ(h.sink.runs.size(), 3u);
}

TEST(SessionTest, ShortConfigsShareAJournalWriteAndNothingIsLost) {
  Harness h;
  (void)h.run(silent(2), configs({1, 2, 3}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1);
  });
  EXPECT_EQ(h.sink.appends, 1);
  EXPECT_EQ(h.sink.runs.size(), 6u);
  EXPECT_EQ(h.sink.records.size(), 6u);
  EXPECT_TRUE(h.sink.closed);
  EXPECT_EQ(h.sink.close_error, "");
}

TEST(SessionTest, FailureKeepsFinishedRunsAndPropagates) {
  Harness h;
  auto fn = [&](const Config& c) {
    Annotation a("k");
    h.collector.launch("kern", 1);
    if (c.index() == 1) throw std::runtime_error("user bug");
  };
  EXPECT_THROW((void)h.run(silent(2), configs({1, 2}), fn), std::runtime_error);
  EXPECT_EQ(h.sink.runs.size(), 2u);  // config 0, both runs
  EXPECT_TRUE(h.sink.closed);
  EXPECT_EQ(h.sink.close_error, "user bug");
  EXPECT_EQ(h.collector.events.back(), "abort");
  EXPECT_EQ(current_annotation(), "");  // the failed run's annotation was closed
}

// An annotation the benchmark opened and never closed was a row of 0 runs without a word
// (issue 38): the session warns once, naming it and the first run that left it open.
TEST(SessionTest, AnAnnotationLeftOpenIsClosedAsFailedWithOneWarningNamingIt) {
  Harness h;
  std::vector<std::string> warnings;
  Options o = silent(2);
  o.on_warning = [&](std::string_view w) { warnings.emplace_back(w); };
  const Logger log(o);
  Session session(h.collector, h.env, &h.sink, log);
  const auto cs = configs({1, 2});
  const SessionInfo info{"t", 0, cs.size(), &o, 0, "/tmp/"};
  const auto out = session.run(info, cs, [&](const Config&) {
    begin_annotation("k");
    h.collector.launch("kern", 1);
  });
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "annotation 'k' was still open when run 0 of config 0 (" + cs[0].label() +
                ") returned; kscope closed it and recorded that run of it as failed (NaN, 0 "
                "runs). Close every annotation inside the benchmark (end_annotation, or a scope: "
                "kscope::Annotation, Python's `with kscope.annotate(...)`).");
  EXPECT_EQ(out.runs[3].failed, std::vector<std::string>{"k"});
  EXPECT_EQ(current_annotation(), "");
}

Options skipping(int runs, int warmup = 0) {
  Options o = silent(runs, warmup);
  o.on_config_error = "skip";
  return o;
}

TEST(SessionSkipTest, AThrowingConfigIsRecordedAndTheSweepGoesOn) {
  Harness h;
  int calls = 0;
  auto fn = [&](const Config& c) {
    ++calls;
    Annotation a("k");
    h.collector.launch("kern", 1);
    if (c.index() == 1) throw std::invalid_argument("bad size");
  };
  const auto out = h.run(skipping(3), configs({1, 2, 3}), fn);
  EXPECT_EQ(calls, 3 + 1 + 3);  // config 1 stops at its first run
  ASSERT_EQ(out.failures.size(), 1u);
  EXPECT_EQ(out.failures[0].config, 1u);
  EXPECT_EQ(out.failures[0].run, 0u);
  EXPECT_FALSE(out.failures[0].warmup);
  EXPECT_EQ(out.failures[0].type, "std::invalid_argument");
  EXPECT_EQ(out.failures[0].message, "bad size");
  EXPECT_EQ(describe(out.failures[0]),
            "std::invalid_argument: bad size (config 1, measured run 0)");
  EXPECT_EQ(h.env.recoveries, 1);
  ASSERT_EQ(h.sink.failures.size(), 1u);  // journaled
  EXPECT_EQ(h.sink.close_error, "");
  EXPECT_EQ(out.runs.size(), 6u);  // configs 0 and 2
  EXPECT_EQ(current_annotation(), "");
}

TEST(SessionSkipTest, TheRecordsOfAFailedRunAreNotCheckedAgainstTheKernelCountRules) {
  // The failed run closed its annotation after two kernels, then threw: its config is dropped,
  // so its kernels must not raise "More than one ..." while the sweep goes on.
  Harness h;
  const auto out = h.run(skipping(2), configs({1, 2, 3}), [&](const Config& c) {
    {
      Annotation a("k");
      h.collector.launch("kern", 1);
      if (c.index() == 1) h.collector.launch("extra", 1);
    }
    if (c.index() == 1) throw std::invalid_argument("after the annotation");
  });
  ASSERT_EQ(out.failures.size(), 1u);
  EXPECT_EQ(out.failures[0].config, 1u);
  EXPECT_EQ(h.sink.close_error, "");
}

TEST(SessionSkipTest, EveryConfigIsJournaledAsItEnds) {
  Harness h;
  (void)h.run(skipping(2), configs({1, 2, 3}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1);
  });
  EXPECT_GE(h.sink.appends, 3);  // short configs, yet one write each
}

TEST(SessionSkipTest, BenchmarkErrorNamesItsOwnTypeAndWarmupFailuresSayWarmup) {
  Harness h;
  auto fn = [&](const Config&) { throw BenchmarkError("ValueError", "n must be even"); };
  const auto out = h.run(skipping(2, 1), configs({1}), fn);
  ASSERT_EQ(out.failures.size(), 1u);
  EXPECT_EQ(describe(out.failures[0]), "ValueError: n must be even (config 0, warm-up run 0)");
}

TEST(SessionSkipTest, ADeviceLeftUnusableEndsTheSweepNamingTheConfig) {
  Harness h;
  h.env.sticky_error = "CUDA error 700 (cudaErrorIllegalAddress)";
  auto fn = [&](const Config& c) {
    Annotation a("k");
    h.collector.launch("kern", 1);
    if (c.index() == 1) throw std::runtime_error("kernel crashed");
  };
  try {
    (void)h.run(skipping(1), configs({1, 2, 3}), fn);
    FAIL() << "expected kscope::Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "config 1 (arg0=2) failed: std::runtime_error: kernel crashed (config 1, measured run "
              "0); the device is unusable afterwards (CUDA error 700 (cudaErrorIllegalAddress)): "
              "the CUDA context of this process is lost (a sticky error), which ends the sweep "
              "even with on_config_error 'skip'. The configs measured before it are in the "
              "journal, and results already in memory stay usable; resume in a new process.");
  }
  EXPECT_EQ(h.sink.runs.size(), 1u);  // config 0 kept
  EXPECT_TRUE(h.sink.closed);
}

TEST(SessionSkipTest, SweepInterruptedIsNeverSkipped) {
  Harness h;
  auto fn = [&](const Config&) { throw SweepInterrupted("KeyboardInterrupt"); };
  EXPECT_THROW((void)h.run(skipping(1), configs({1, 2}), fn), SweepInterrupted);
  EXPECT_EQ(h.sink.close_error, "KeyboardInterrupt");
}

TEST(SessionSkipTest, RaiseModePropagatesTheBenchmarksException) {
  Harness h;
  auto fn = [&](const Config&) { throw BenchmarkError("ValueError", "x"); };
  EXPECT_THROW((void)h.run(silent(1), configs({1, 2}), fn), BenchmarkError);
  EXPECT_EQ(h.env.recoveries, 0);
}

TEST(SessionTest, PartOfASweepIsNumberedByConfigIndex) {
  Harness h;
  auto cs = configs({1, 2, 3, 4});
  const std::vector<Config> part = {cs[1], cs[3]};
  const auto out = h.run(silent(1), part, [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1);
  });
  ASSERT_EQ(out.runs.size(), 2u);
  EXPECT_EQ(out.runs[0].run.config, 1u);
  EXPECT_EQ(out.runs[1].run.config, 3u);
  EXPECT_EQ(out.records[1].run.config, 3u);
}

TEST(SessionTest, StopAfterConfigEndsTheSweepAtThatBoundary) {
  Harness h;
  int done = 0;
  Session session(h.collector, h.env, &h.sink, h.log);
  session.set_after_config([&] { return ++done == 2; });
  h.options = silent(1);
  SessionInfo info{"t", 0, 4, &h.options, 0, "/tmp/"};
  const auto out = session.run(info, configs({1, 2, 3, 4}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1);
  });
  EXPECT_EQ(out.runs.size(), 2u);
  EXPECT_EQ(h.sink.close_error, "");
}

TEST(SessionTest, CollectorPassesReExecuteEachMeasuredRun) {
  Harness h;
  h.collector.passes = 3;
  int calls = 0;
  (void)h.run(silent(2, 1), configs({1}), [&](const Config&) { ++calls; });
  EXPECT_EQ(calls, 1 + 2 * 3);
}

TEST(SessionTest, EnvironmentPreparesBeforeTheCollectorStartsARun) {
  Harness h;
  h.env.events = &h.collector.events;
  (void)h.run(silent(1), configs({1}), [](const Config&) {});
  ASSERT_GE(h.collector.events.size(), 4u);
  EXPECT_EQ(h.collector.events[0], "begin");
  EXPECT_EQ(h.collector.events[1], "prepare 0.0 p0");
  EXPECT_EQ(h.collector.events[2], "env before");
  EXPECT_EQ(h.collector.events[3], "before_run 0.0 p0");
}

TEST(SessionTest, EveryPassIsPreparedBeforeItsEnvironmentAndItsRegions) {
  // The tool restores device memory in prepare_pass; the cache flush at region entry must come
  // after it in every pass, so that the restore's copies cannot warm the measured kernels.
  Harness h;
  h.collector.passes = 2;
  h.env.events = &h.collector.events;
  (void)h.run(silent(1), configs({1}), [](const Config&) { Annotation a("k"); });
  const std::vector<std::string> want = {
      "begin",       "prepare 0.0 p0", "env before", "before_run 0.0 p0", "env region k",
      "after_run",   "prepare 0.0 p1", "env before", "before_run 0.0 p1", "env region k",
      "after_run"};
  ASSERT_GE(h.collector.events.size(), want.size());
  EXPECT_EQ(std::vector<std::string>(h.collector.events.begin(),
                                     h.collector.events.begin() + static_cast<long>(want.size())),
            want);
}

TEST(SessionTest, FinishedRunsReachTheSinkWhileTheNextRunsKernelsRun) {
  // Handing the runs finished so far to the journal happens after the benchmark returned and
  // before the run's synchronisation (and so before the tool's after_run), while the device
  // still runs what was launched; the run itself goes with the next one.
  Harness h;
  h.sink.events = &h.collector.events;
  (void)h.run(silent(3), configs({1}), [](const Config&) { Annotation a("k"); });
  const std::vector<std::string> want = {
      "begin",      "prepare 0.0 p0",    "before_run 0.0 p0", "after_run",
      "prepare 0.1 p0", "before_run 0.1 p0", "add_runs 0.0",   "after_run",
      "prepare 0.2 p0", "before_run 0.2 p0", "add_runs 0.1",   "after_run"};
  ASSERT_GE(h.collector.events.size(), want.size());
  EXPECT_EQ(std::vector<std::string>(h.collector.events.begin(),
                                     h.collector.events.begin() + static_cast<long>(want.size())),
            want);
  EXPECT_EQ(h.sink.runs.size(), 3u);  // the last run went with the final append
}

TEST(SessionTest, TheToolsCostLineIsPrintedAtDebugOnceTheLastRecordsAreHandedOver) {
  // A log callback that fails (Python's sys.stdout) must not lose the last records: the tool's
  // DEBUG line comes after they reached the journal.
  testing::FakeCollector collector;
  collector.cost = "[fake] the session's flushes cost 1 ms";
  testing::FakeEnvironment env;
  testing::RecordingSink sink;
  std::vector<std::string> events;
  sink.events = &events;
  Options o = silent(2);
  o.verbosity = Verbosity::kDebug;
  o.log = [&events](std::string_view text) {
    if (text.find("[fake] the session's flushes cost 1 ms") != std::string_view::npos) {
      events.emplace_back("cost line");
    }
  };
  const Logger log(o);
  Session session(collector, env, &sink, log);
  const SessionInfo info{"t", 0, 1, &o, 0, "/tmp/"};
  (void)session.run(info, configs({1}), [&collector](const Config&) {
    Annotation a("k");
    collector.launch("k", 1.0);
  });
  const auto last = std::find(events.rbegin(), events.rend(), "append").base();
  ASSERT_NE(last, events.begin());
  EXPECT_EQ(std::count(events.begin(), events.end(), "cost line"), 1);
  EXPECT_NE(std::find(last, events.end(), "cost line"), events.end());
  EXPECT_EQ(sink.records.size(), 2u);
}

TEST(SessionTest, EveryRegionEntryReachesTheEnvironmentBeforeTheRegionOpens) {
  // cache_control "all": the flush happens at each annotated region's entry, in warm-up runs and
  // measured runs alike, and whatever it launches is not attributed to the region.
  Harness h;
  std::vector<int> open_at_flush;
  h.env.on_region = [&] {
    open_at_flush.push_back(AnnotationRegistry::instance().snapshot().annotation);
    h.collector.launch("flush", 1);
  };
  const auto out = h.run(silent(2, 1), configs({1}), [&](const Config&) {
    {
      Annotation a("first");
      h.collector.launch("kern", 10);
    }
    Annotation b("second");
    h.collector.launch("kern", 20);
  });
  EXPECT_EQ(h.env.regions, (std::vector<std::string>{"first", "second", "first", "second",
                                                     "first", "second"}));
  EXPECT_EQ(open_at_flush, std::vector<int>(6, -1));  // no annotation open while flushing
  ASSERT_EQ(out.records.size(), 4u);  // 2 measured runs x 2 regions, no flush kernel
  for (const auto& r : out.records) EXPECT_EQ(r.kernel, "kern");
}

TEST(SessionTest, WarmupRunsAreFlaggedAndNotRecorded) {
  Harness h;
  const auto out = h.run(silent(1, 2), configs({1}), [&](const Config&) {
    Annotation a("k");
    h.collector.launch("kern", 1);
  });
  EXPECT_EQ(h.collector.events[1], "prepare 0.0w p0");
  EXPECT_EQ(h.collector.events[2], "before_run 0.0w p0");
  EXPECT_EQ(out.records.size(), 1u);
  EXPECT_FALSE(out.records[0].run.warmup);
}

}  // namespace
}  // namespace kscope

namespace kscope {
namespace {

class FailingBeginCollector : public testing::FakeCollector {
 public:
  void begin(const SessionInfo&) override { throw std::runtime_error("cannot start"); }
};

TEST(SessionBeginTest, ToolThatCannotStartClosesTheJournalWithTheReason) {
  FailingBeginCollector collector;
  testing::FakeEnvironment env;
  testing::RecordingSink sink;
  Options o;
  o.verbosity = Verbosity::kSilent;
  Logger log(o);
  Session session(collector, env, &sink, log);
  SessionInfo info{"t", 0, 1, &o, 0, "/tmp/"};
  EXPECT_THROW((void)session.run(info, configs({1}), [](const Config&) {}), std::runtime_error);
  EXPECT_TRUE(sink.closed);
  EXPECT_EQ(sink.close_error, "cannot start");
  EXPECT_EQ(collector.events.back(), "abort");
}

}  // namespace
}  // namespace kscope

#include "core/host_times.hpp"

namespace kscope {
namespace {

TEST(HostTimesTest, PerRunSummaryNamesEveryPhaseAndTheRunCount) {
  HostTimes p;
  EXPECT_EQ(p.per_run_summary(), "no runs");
  p.start();
  p.lap(HostTimes::kBenchmark);
  p.count_run();
  const std::string s = p.per_run_summary();
  EXPECT_EQ(s.rfind("host time per run (us, mean over 1 executions): environment before 0.0,", 0), 0u) << s;
  for (const char* name : {"tool before", "benchmark", "synchronize", "tool after", "environment after", "journal"}) {
    EXPECT_NE(s.find(name), std::string::npos) << name;
  }
}

TEST(HostTimesTest, DebugOutputEndsTheSessionWithThePerRunSummary) {
  testing::FakeCollector collector;
  testing::FakeEnvironment env;
  Options o;
  o.verbosity = Verbosity::kDebug;
  std::string out;
  o.log = [&](std::string_view s) { out += s; };
  o.interactive = false;
  Logger log(o);
  Session session(collector, env, nullptr, log);
  SessionInfo info{"t", 0, 1, &o, 0, "/tmp/"};
  (void)session.run(info, configs({1}), [](const Config&) {});
  EXPECT_NE(out.find("[kscope] host time per run (us, mean over 1 executions)"), std::string::npos) << out;
}

}  // namespace
}  // namespace kscope
