#pragma once
#include <functional>
// Fakes for the session's collaborators: a collector whose "kernels" are launched explicitly by
// the test benchmark (it attributes them through the annotation registry exactly like the CUPTI
// launch callback does), a run environment and a sink that record what happened.

#include <stdexcept>
#include <string>
#include <vector>

#include "core/annotation_registry.hpp"
#include "core/collector.hpp"
#include "core/run_environment.hpp"
#include "core/run_sink.hpp"
#include "core/session.hpp"
#include "kscope/errors.hpp"

namespace kscope::testing {

class FakeCollector : public Collector {
 public:
  std::string name() const override { return "fake"; }
  void begin(const SessionInfo&) override { events.push_back("begin"); }
  int passes_per_run() const override { return passes; }
  void prepare_pass(const RunId& r, int pass) override {
    events.push_back("prepare " + std::to_string(r.config) + "." + std::to_string(r.run) +
                     (r.warmup ? "w" : "") + " p" + std::to_string(pass));
  }
  void before_run(const RunId& r, int pass) override {
    pass_ = pass;
    events.push_back("before_run " + std::to_string(r.config) + "." + std::to_string(r.run) +
                     (r.warmup ? "w" : "") + " p" + std::to_string(pass));
  }
  void after_run(const RunId&, int) override { events.push_back("after_run"); }
  std::vector<KernelRecord> flush() override {
    events.push_back("flush");
    std::vector<KernelRecord> out;
    if (hold && hold()) return out;  // a collector decoding in batches keeps them for later
    if (one_flush_late) {            // the runs of a flush are decoded at the next one
      out.swap(decoded);
      decoded.swap(pending);
      return out;
    }
    out.swap(pending);
    return out;
  }
  bool flush_is_complete() const override { return complete_flushes; }
  std::vector<KernelRecord> end() override {
    events.push_back("end");
    hold = nullptr;  // the end hands over everything
    one_flush_late = false;
    std::vector<KernelRecord> out = flush();
    out.insert(out.begin(), decoded.begin(), decoded.end());
    decoded.clear();
    return out;
  }
  void abort() noexcept override { events.push_back("abort"); }
  std::string cost_summary() const override { return cost; }

  /// What the benchmark calls instead of launching a kernel. A replaying tool measures a kernel
  /// over all passes of a run and delivers one record: the record is made in pass 0.
  void launch(const std::string& kernel, double ns) {
    auto& reg = AnnotationRegistry::instance();
    const auto s = reg.snapshot();
    if (s.annotation < 0 || !s.in_run || s.run.warmup || pass_ != 0) return;
    KernelRecord k;
    k.annotation = reg.name_of(s.annotation);
    k.kernel = kernel;
    k.run = s.run;
    k.sequence = s.sequence;
    k.metrics.push_back({"gpu__time_duration.sum", ns, std::string("ns")});
    pending.push_back(k);
  }

  int passes = 1;
  int pass_ = 0;
  bool complete_flushes = true;  // flush() returns every record of the runs completed so far
  std::function<bool()> hold;    // when it returns true, flush() hands over nothing
  // flush() hands over the records of the runs finished before the previous flush (a batch is
  // decoded one flush later); needs complete_flushes false
  bool one_flush_late = false;
  std::string cost;              // what cost_summary() says
  std::vector<std::string> events;
  std::vector<KernelRecord> pending;
  std::vector<KernelRecord> decoded;  // one_flush_late: what the next flush hands over
};

class FakeEnvironment : public RunEnvironment {
 public:
  void before_run(const RunId&) override { ++before; if (events) events->push_back("env before"); }
  void before_region(const std::string& name) override {
    regions.push_back(name);
    if (events) events->push_back("env region " + name);
    if (on_region) on_region();
  }
  void synchronize() override { ++syncs; }
  void recover() override {
    ++recoveries;
    if (!sticky_error.empty()) throw Error(sticky_error);
  }
  void after_run(const RunId&) override { ++after; }
  int before = 0, syncs = 0, after = 0, recoveries = 0;
  std::string sticky_error;  // recover() throws it when set (an unusable device)
  std::vector<std::string> regions;  // annotation names, one per region entry
  std::function<void()> on_region;   // what the flush does (e.g. launch a kernel)
  std::vector<std::string>* events = nullptr;
};

class RecordingSink : public RunSink {
 public:
  void add_runs(std::vector<RunLog> r) override {
    if (events) {
      for (const auto& log : r) {
        events->push_back("add_runs " + std::to_string(log.run.config) + "." +
                          std::to_string(log.run.run) + (log.run.warmup ? "w" : ""));
      }
    }
    runs.insert(runs.end(), r.begin(), r.end());
  }
  void append(const std::vector<RunLog>& r, RecordSlice k) override {
    if (events) events->push_back("append");
    ++appends;
    runs.insert(runs.end(), r.begin(), r.end());
    records.insert(records.end(), k.begin(), k.end());
  }
  void append_failure(const ConfigFailure& f) override { failures.push_back(f); }
  void close(const std::string& error) override {
    closed = true;
    close_error = error;
  }
  int appends = 0;
  std::vector<RunLog> runs;
  std::vector<KernelRecord> records;
  std::vector<ConfigFailure> failures;
  bool closed = false;
  std::string close_error;
  std::vector<std::string>* events = nullptr;  // add_runs (one per run) and append, when set
};

/// A Session over the fakes above, with `Sink` as its journal: run() runs one sweep.
template <class Sink = RecordingSink>
struct SessionHarness {
  FakeCollector collector;
  FakeEnvironment env;
  Sink sink;
  Options options;
  Logger log{options};
  Session::Output run(const Options& o, const std::vector<Config>& cs, const Benchmark& fn) {
    options = o;
    Session session(collector, env, &sink, log);
    SessionInfo info{"t", 0, cs.size(), &options, 0, "/tmp/"};
    return session.run(info, cs, fn);
  }
};

}  // namespace kscope::testing
