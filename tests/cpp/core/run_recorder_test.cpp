// RunRecorder (core/run_recorder.hpp): finished runs reach the sink once, staged ahead of their
// records or with them, and every run the session measured comes back from take(). With a
// collector decoding in batches (incomplete flushes) a run reaches the sink only with its
// records, and an adaptive stop only after its config's runs.
#include "core/run_recorder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/record_store.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

RunLog run_log(std::size_t config, std::size_t run) {
  RunLog log;
  log.run = RunId{config, run, false};
  return log;
}

KernelRecord record_of(std::size_t config, std::size_t run, const std::string& kernel = "k") {
  KernelRecord k;
  k.run = RunId{config, run, false};
  k.annotation = "a";
  k.kernel = kernel;
  return k;
}

std::string name(const RunId& r) { return std::to_string(r.config) + "." + std::to_string(r.run); }

// Writes what it is handed as text: "add_runs 0.0", "append 0.1 | 0.0 0.1", ...
class LineSink : public RunSink {
 public:
  void add_runs(std::vector<RunLog> runs) override {
    events.push_back("add_runs" + runs_text(runs));
  }
  void append(const std::vector<RunLog>& runs, RecordSlice records) override {
    last_records = records.begin();
    events.push_back("append" + runs_text(runs) + " |" +
                     records_text(records.begin(), records.size()));
  }
  void append_failure(const ConfigFailure&) override { events.push_back("failure"); }
  void config_stopped(const ConfigStop& stop) override {
    events.push_back("stop " + std::to_string(stop.config));
  }
  void close(const std::string&) override { events.push_back("close"); }

  std::vector<std::string> events;
  const KernelRecord* last_records = nullptr;

 private:
  static std::string runs_text(const std::vector<RunLog>& runs) {
    std::string s;
    for (const auto& r : runs) s += " " + name(r.run);
    return s;
  }
  static std::string records_text(const KernelRecord* records, std::size_t count) {
    std::string s;
    for (std::size_t i = 0; i < count; ++i) s += " " + name(records[i].run);
    return s;
  }
};

// A collector decoding in batches: its flushes are not complete.
RunRecorder::Rules in_batches() {
  RunRecorder::Rules rules;
  rules.complete_flushes = false;
  return rules;
}

std::vector<std::string> names(const std::vector<RunLog>& runs) {
  std::vector<std::string> out;
  for (const auto& r : runs) out.push_back(name(r.run));
  return out;
}

TEST(RunRecorderTest, StagedRunsReachTheSinkOnceAndTheAppendCarriesTheRest) {
  LineSink sink;
  RunRecorder recorder(&sink);
  recorder.add(run_log(0, 0));
  EXPECT_TRUE(recorder.has_unstaged());
  recorder.stage();
  EXPECT_FALSE(recorder.has_unstaged());
  recorder.add(run_log(0, 1));
  EXPECT_EQ(names(recorder.take()), (std::vector<std::string>{"0.0", "0.1"}));
  recorder.append({record_of(0, 0), record_of(0, 1)});
  EXPECT_EQ(sink.events, (std::vector<std::string>{"add_runs 0.0", "append 0.1 | 0.0 0.1"}));
}

TEST(RunRecorderTest, AFlushWithNeitherRunsNorRecordsWritesNoLine) {
  LineSink sink;
  RunRecorder recorder(&sink);
  EXPECT_TRUE(recorder.take().empty());
  recorder.append({});
  EXPECT_TRUE(sink.events.empty());
  EXPECT_TRUE(recorder.take().empty());
  recorder.append({record_of(0, 0)});  // records of runs handed over before
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append | 0.0"}));
}

TEST(RunRecorderTest, AllStagedRunsStillWriteTheirLine) {
  LineSink sink;
  RunRecorder recorder(&sink);
  recorder.add(run_log(0, 0));
  recorder.stage();
  (void)recorder.take();
  recorder.append({});
  EXPECT_EQ(sink.events, (std::vector<std::string>{"add_runs 0.0", "append |"}));
}

TEST(RunRecorderTest, TheLastAppendSharesTheRecords) {
  LineSink sink;
  RunRecorder recorder(&sink);
  recorder.add(run_log(1, 0));
  (void)recorder.take();
  RecordStore kept(std::vector<KernelRecord>{record_of(0, 0), record_of(1, 0)});
  recorder.append_last(kept.share(1));
  EXPECT_EQ(sink.last_records, &kept[1]);  // the store's own record, not a copy
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 1.0 | 1.0"}));
}

TEST(RunRecorderTest, AnAppendCopiesTheFlushsRecords) {
  LineSink sink;
  RunRecorder recorder(&sink);
  recorder.add(run_log(1, 0));
  (void)recorder.take();
  const std::vector<KernelRecord> flushed{record_of(1, 0)};
  recorder.append(flushed);
  EXPECT_NE(sink.last_records, flushed.data());  // the caller keeps (and moves) its own
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 1.0 | 1.0"}));
}

TEST(RunRecorderTest, WithoutASinkEveryRunIsStillTaken) {
  RunRecorder recorder(nullptr);
  recorder.add(run_log(0, 0));
  EXPECT_FALSE(recorder.has_unstaged());
  recorder.stage();
  recorder.stop(ConfigStop{});
  EXPECT_EQ(names(recorder.take()), (std::vector<std::string>{"0.0"}));
}

TEST(RunRecorderTest, AStopReachesTheSinkAfterItsRuns) {
  LineSink sink;
  RunRecorder recorder(&sink);
  recorder.add(run_log(2, 0));
  (void)recorder.take();
  recorder.append({record_of(2, 0)});
  ConfigStop stop;
  stop.config = 2;
  recorder.stop(stop);
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 2.0 | 2.0", "stop 2"}));
}

TEST(RunRecorderTest, AWriteIsDueAtEveryConfigsEndOnlyWhenAskedOrAfterTheGap) {
  RunRecorder::Rules rules;
  rules.every_config = true;
  const RunRecorder every(nullptr, std::move(rules));
  EXPECT_TRUE(every.due(true));
  EXPECT_FALSE(every.due(false));  // inside a config: a second after the last write
  const RunRecorder gap(nullptr);
  EXPECT_FALSE(gap.due(true));  // a config that ends within 0.1 s shares the next write
}

// Config 0's runs launch one kernel, config 1's run 0 two: the second rule breaks there.
RunRecorder::Rules counted(const std::vector<std::string>& ignore, bool complete) {
  RunRecorder::Rules rules;
  rules.complete_flushes = complete;
  rules.counts.emplace(false, std::vector<std::string>{"n=1", "n=2"});
  rules.ignore_kernel_list = &ignore;
  return rules;
}

std::vector<RunLog> entered(std::vector<RunLog> runs) {
  for (auto& r : runs) r.entered = {"a"};
  return runs;
}

TEST(RunRecorderTest, WithCompleteFlushesTheRunsOfAWriteAreCheckedAgainstTheKernelCountRules) {
  const std::vector<std::string> ignore;
  RunRecorder recorder(nullptr, counted(ignore, true));
  const std::vector<RunLog> first = entered({run_log(0, 0), run_log(0, 1)});
  EXPECT_NO_THROW(recorder.check({record_of(0, 0), record_of(0, 1)}, first));
  const std::vector<RunLog> second = entered({run_log(1, 0)});
  EXPECT_THROW(recorder.check({record_of(1, 0), record_of(1, 0, "k2")}, second), ExtractionError);
}

TEST(RunRecorderTest, WithIncompleteFlushesNothingIsCheckedBeforeTheSweepEnds) {
  const std::vector<std::string> ignore;
  RunRecorder recorder(nullptr, counted(ignore, false));
  const std::vector<RunLog> runs = entered({run_log(1, 0)});
  EXPECT_NO_THROW(recorder.check({record_of(1, 0), record_of(1, 0, "k2")}, runs));
}

// Incomplete flushes: runs 0.0 and 0.1 finished, the flush brought 0.0's records only.
TEST(RunRecorderBatchTest, ARunWaitsForItsRecordsAndGoesWithThem) {
  LineSink sink;
  RunRecorder recorder(&sink, in_batches());
  recorder.add(run_log(0, 0));
  recorder.add(run_log(0, 1));
  EXPECT_FALSE(recorder.has_unstaged());  // nothing goes ahead of its records
  recorder.stage();
  EXPECT_EQ(names(recorder.take()), (std::vector<std::string>{"0.0", "0.1"}));
  recorder.append({});
  EXPECT_TRUE(sink.events.empty());
  recorder.append({record_of(0, 0)});
  (void)recorder.take();
  recorder.append({record_of(0, 1)});
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 0.0 | 0.0", "append 0.1 | 0.1"}));
}

TEST(RunRecorderBatchTest, TheRunsBeforeTheLastOneWithARecordAreCompleteInTheOrderTheyRan) {
  LineSink sink;
  RunRecorder recorder(&sink, in_batches());
  for (const std::size_t config : {5, 2, 7}) recorder.add(run_log(config, 0));  // a shard's order
  (void)recorder.take();
  recorder.append({record_of(2, 0)});  // 5.0 launched no kernel; 7.0 is not decoded yet
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 5.0 2.0 | 2.0"}));
}

TEST(RunRecorderBatchTest, TheLastAppendHandsOverEveryRunLeftWithTheSharedRecords) {
  LineSink sink;
  RunRecorder recorder(&sink, in_batches());
  recorder.add(run_log(0, 0));
  recorder.add(run_log(0, 1));
  (void)recorder.take();
  recorder.append({});
  RecordStore kept(std::vector<KernelRecord>{record_of(0, 0)});  // 0.1 launched nothing
  recorder.append_last(kept.share(0));
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 0.0 0.1 | 0.0"}));
  EXPECT_EQ(sink.last_records, &kept[0]);  // shared, not copied
}

TEST(RunRecorderBatchTest, AStopWaitsForTheRunsOfItsConfig) {
  LineSink sink;
  RunRecorder recorder(&sink, in_batches());
  recorder.add(run_log(0, 0));
  (void)recorder.take();
  recorder.append({});
  ConfigStop stop;
  stop.config = 0;
  recorder.stop(stop);
  EXPECT_TRUE(sink.events.empty());
  recorder.add(run_log(1, 0));
  (void)recorder.take();
  recorder.append({record_of(0, 0)});
  EXPECT_EQ(sink.events, (std::vector<std::string>{"append 0.0 | 0.0", "stop 0"}));
}

}  // namespace
}  // namespace kscope
