#include "core/session.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#include "core/annotation_registry.hpp"
#include "core/extraction.hpp"
#include "core/progress.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {
// While run() runs, the registry's entry hook calls its info collectors and then the run
// environment (the cache flush, last, right before the region opens).
class RegionEntry {
 public:
  RegionEntry(InfoCollection& info, RunEnvironment& env, HostTimes& times) {
    AnnotationRegistry::instance().set_entry_hook([&info, &env, &times](const std::string& name) {
      const auto t0 = HostClock::now();
      if (!info.empty()) info.enter_annotation(name);
      env.before_region(name);
      times.add(HostTimes::kRegionEntry, t0, HostClock::now(), name);
    });
  }
  ~RegionEntry() { AnnotationRegistry::instance().set_entry_hook({}); }
  RegionEntry(const RegionEntry&) = delete;             // non-copyable
  RegionEntry& operator=(const RegionEntry&) = delete;  // non-copyable
};

// Room up front for what `runs` executions keep (a run log, a record per kernel and about eight
// phase spans per run, ~1 kB in all), so that keeping them does not move what was kept, every
// time the vectors grow, over fresh pages: a third of the session thread's own time per run in
// a sweep of short kernels. Capped, so that a very long sweep grows as usual past it.
constexpr std::size_t kReservedRuns = 16384;
constexpr std::size_t kSpansPerRun = 8;
void reserve_output(Session::Output& out, std::size_t runs) {
  runs = std::min(runs, kReservedRuns);
  out.runs.reserve(runs);
  out.records.reserve(runs);
  out.phases.reserve(kSpansPerRun * runs);
}

// Thrown by Session::execute when the benchmark failed with on_config_error "skip" and the run
// was ended cleanly; the config loop records it and goes on.
struct FailedRun {
  ConfigFailure failure;
};
}  // namespace

Session::Session(Collector& collector, RunEnvironment& environment, RunSink* sink,
                 const Logger& log)
    : collector_(collector), env_(environment), sink_(sink), log_(log) {}

RunLog Session::execute(const RunId& run, const Config& config, Sweep& sweep) {
  const int passes = run.warmup ? 1 : collector_.passes_per_run();
  RunLog first;
  for (int pass = 0; pass < passes; ++pass) {
    RunLog log = execute_pass(run, pass, config, sweep);
    if (pass == 0) first = std::move(log);
  }
  return first;
}

RunLog Session::execute_pass(const RunId& run, int pass, const Config& config, Sweep& sweep) {
  auto& registry = AnnotationRegistry::instance();
  // Info collectors: RUN ones before the tool saves or restores device memory, the thermal
  // guard and the cache flushes (at region entry), so that their work cannot disturb the
  // measured run; ANNOTATION ones only in the first pass of measured runs.
  const bool collect = !run.warmup && pass == 0;
  times_->set_run(run, pass);
  times_->start();
  if (collect) sweep.info.start_run(config);
  collector_.prepare_pass(run, pass);
  env_.before_run(run);
  times_->lap(HostTimes::kEnvironmentBefore);
  registry.start_run(run);
  collector_.before_run(run, pass);
  times_->lap(HostTimes::kToolBefore);
  try {
    sweep.fn(config);
  } catch (...) {
    fail_pass(run, pass, config, sweep.info);
  }
  times_->lap(HostTimes::kBenchmark);
  // What the benchmark launched still runs on the device: the earlier runs go to the journal's
  // thread meanwhile, before the synchronisation waits for it, so that handing them over costs
  // nothing on kernels longer than the hand-over, and their encoding overlaps the next runs
  // instead of adding to the next write.
  stage_runs(sweep.out);
  times_->lap_tally(HostTimes::kStaging);
  env_.synchronize();
  times_->lap(HostTimes::kSynchronize);
  collector_.after_run(run, pass);
  warn_if_left_open(registry.current_name(), run, config);
  RunLog log = registry.finish_run();
  if (collect) sweep.info.finish_run(&log);
  times_->lap(HostTimes::kToolAfter);
  env_.after_run(run);
  times_->lap(HostTimes::kEnvironmentAfter);
  times_->count_run();
  return log;
}

void Session::fail_pass(const RunId& run, int pass, const Config& config, InfoCollection& info) {
  info.finish_run(nullptr);
  (void)AnnotationRegistry::instance().finish_run();
  const std::exception_ptr error = std::current_exception();
  try {
    std::rethrow_exception(error);
  } catch (const SweepInterrupted&) {
    throw;
  } catch (...) {
    if (!skip_failures_) throw;
  }
  ConfigFailure failure = failure_of(error, run);
  end_failed_run(run, pass, config, failure);
  throw FailedRun{std::move(failure)};
}

void Session::warn_if_left_open(const std::string& annotation, const RunId& run,
                                const Config& config) {
  if (annotation.empty() || warned_left_open_) return;
  warned_left_open_ = true;  // once per sweep: every run of a benchmark would repeat it
  log_.warn("annotation '" + annotation + "' was still open when " +
            (run.warmup ? "warm-up run " : "run ") + std::to_string(run.run) + " of config " +
            std::to_string(run.config) + " (" + config.label() +
            ") returned; kscope closed it and recorded that run of it as failed (NaN, 0 runs). "
            "Close every annotation inside the benchmark (end_annotation, or a scope: "
            "kscope::Annotation, Python's `with kscope.annotate(...)`).");
}

void Session::take_phases(Output& out) {
  std::vector<PhaseSpan> spans = times_->take_spans();
  if (sink_) sink_->add_phases(spans);
  for (auto& s : spans) out.phases.push_back(std::move(s));
}

void Session::end_failed_run(const RunId& run, int pass, const Config& config,
                             const ConfigFailure& failure) {
  try {
    env_.recover();
  } catch (const std::exception& e) {
    throw Error("config " + std::to_string(run.config) + " (" + config.label() + ") failed: " +
                describe(failure) + "; the device is unusable afterwards (" + e.what() +
                "): the CUDA context of this process is lost (a sticky error), which ends the "
                "sweep even with on_config_error 'skip'. The configs measured before it are in "
                "the journal, and results already in memory stay usable; resume in a new "
                "process.");
  }
  collector_.after_run(run, pass);
  env_.after_run(run);
}

void Session::stage_runs(Output& out) {
  if (!recorder_.has_unstaged()) return;
  take_phases(out);
  recorder_.stage();
}

void Session::keep(Output& out, std::vector<RunLog> runs, std::vector<KernelRecord> records) {
  for (auto& log : runs) out.runs.push_back(std::move(log));
  for (auto& r : records) out.records.push_back(std::move(r));
}

void Session::flush_to_sink(Output& out) {
  times_->set_run(std::nullopt, 0);  // a journal write belongs to no run
  times_->start();
  std::vector<KernelRecord> records = collector_.flush();
  take_phases(out);  // the runs' spans go with their line; this write's own span with the next
  std::vector<RunLog> runs = recorder_.take();
  recorder_.append(records);  // before the check: the journal keeps what broke the rules
  recorder_.check(records, runs);
  keep(out, std::move(runs), std::move(records));
  times_->lap(HostTimes::kJournal);
}

void Session::end_tool(Output& out) {
  times_->set_run(std::nullopt, 0);
  times_->skip();  // the runs are no fixed cost
  const HostClock::time_point start = times_->mark();
  std::vector<KernelRecord> records = collector_.end();
  times_->step("tool end");
  take_phases(out);
  std::vector<RunLog> runs = recorder_.take();
  try {
    recorder_.check(records, runs);
  } catch (...) {
    recorder_.append(records);  // the journal keeps them
    throw;
  }
  times_->step("kernel-count check");
  const std::size_t first = out.records.size();
  keep(out, std::move(runs), std::move(records));
  // The last write shares its records with `out`, without a copy: the journal's thread reads
  // them while the tables are built, and owns its share until it has written them.
  recorder_.append_last(out.records.share(first));
  times_->step("last journal write");
  times_->add(HostTimes::kJournal, start, times_->mark(), {});  // the three steps above
  if (log_.debug_enabled()) {
    if (const std::string cost = collector_.cost_summary(); !cost.empty()) log_.debug(cost);
  }
}

void Session::reset(const Options& opt) {
  skip_failures_ = opt.on_config_error == "skip";
  warned_left_open_ = false;
  times_->reset_phases();
}

void Session::begin_tool(const SessionInfo& info, const std::vector<Config>& configs) {
  try {
    collector_.begin(info);
    times_->step("tool begin");
  } catch (const std::exception& e) {
    collector_.abort();
    if (sink_) sink_->close(e.what());
    throw;
  }
  // After begin(): the cupti tool picks its measurement path there, and with it whether its
  // flushes are complete.
  const Options& opt = *info.options;
  RunRecorder::Rules rules;
  rules.complete_flushes = collector_.flush_is_complete();
  rules.every_config = skip_failures_;
  rules.counts.emplace(static_cast<bool>(opt.combine_kernel_metrics), config_labels(configs));
  rules.ignore_kernel_list = &opt.ignore_kernel_list;
  recorder_ = RunRecorder(sink_, std::move(rules));
}

void Session::start_config(std::size_t c, std::size_t configs, const Config& config,
                           Sweep& sweep) {
  const auto config_start = HostClock::now();
  if (log_.debug_enabled()) {
    log_.box("Config " + std::to_string(c + 1) + "/" + std::to_string(configs), config.label());
  }
  sweep.progress.start_config(c, config.label());
  sweep.info.collect_config(config);
  times_->tally(HostTimes::kConfigStart, HostClock::now() - config_start);
}

void Session::run_fixed(const Config& config, Sweep& sweep) {
  for (int r = 0; r < sweep.opt.runs; ++r) {
    recorder_.add(execute(RunId{config.index(), static_cast<std::size_t>(r), false}, config,
                          sweep));
    sweep.progress.run_done();
    if (recorder_.due(false)) flush_to_sink(sweep.out);
  }
}

void Session::record_failure(ConfigFailure failure, Sweep& sweep) {
  // The config's runs so far stay in the journal (the failure line says they do not count);
  // its remaining runs are not executed.
  if (log_.debug_enabled()) log_.debug("config failed: " + describe(failure));
  flush_to_sink(sweep.out);
  if (sink_) sink_->append_failure(failure);
  sweep.out.failures.push_back(std::move(failure));
  sweep.progress.skip_config();
}

bool Session::run_config(std::size_t c, std::size_t configs, const Config& config,
                         Sweep& sweep) {
  start_config(c, configs, config, sweep);
  try {
    for (int w = 0; w < sweep.opt.warmup_runs; ++w) {
      (void)execute(RunId{config.index(), static_cast<std::size_t>(w), true}, config, sweep);
      sweep.progress.run_done();
    }
    // runs="auto": batches until the stopping rule stops them (session_adaptive.cpp).
    if (sweep.opt.adaptive.enabled) {
      run_adaptive(config, sweep);
    } else {
      run_fixed(config, sweep);
    }
  } catch (FailedRun& failed) {
    record_failure(std::move(failed.failure), sweep);
    return !stops_after_config();
  }
  // With on_config_error "skip" every config is journaled as it ends: a later config's
  // faulting kernel loses the device and with it whatever the tool had not handed over.
  if (recorder_.due(true)) flush_to_sink(sweep.out);
  return !stops_after_config();
}

void Session::finish(Output& out, Progress& progress,
                     HostClock::time_point loop_start) {
  progress.finish();
  end_tool(out);
  const auto loop_wall = HostClock::now() - loop_start;
  take_phases(out);  // the last journal write's own span
  if (sink_) sink_->close("");
  times_->step("journal close");
  if (log_.debug_enabled()) log_.debug(times_->per_run_summary(loop_wall));
}

void Session::fail(Output& out, const std::string& error) {
  // The log sink may be user code (Python's sys.stdout): never let it replace the error.
  try {
    if (log_.info_enabled() && log_.interactive()) log_.raw("\n");
  } catch (...) {
  }
  // Keep whatever was measured: the device may still be usable, so try to hand over the
  // completed records before stopping the tool.
  try {
    env_.synchronize();
    flush_to_sink(out);
  } catch (...) {
  }
  close_failed(error);
}

void Session::close_failed(const std::string& error) {
  collector_.abort();
  if (sink_) sink_->close(error);
}

Session::Output Session::run(const SessionInfo& info, const std::vector<Config>& configs,
                             const Benchmark& fn) {
  const Options& opt = *info.options;
  Output out;
  reset(opt);
  InfoCollection info_collection(opt.info_collectors, log_);
  const RegionEntry region_entry(info_collection, env_, *times_);
  info_collection.collect_once();
  times_->step("session set-up");
  begin_tool(info, configs);
  // Adaptive runs: a config counts as one run in the progress line (its run count is not known).
  const int runs_per_config = (opt.adaptive.enabled ? 1 : opt.runs) + opt.warmup_runs;
  reserve_output(out, configs.size() * static_cast<std::size_t>(runs_per_config));
  Progress progress(log_, configs.size(), static_cast<std::size_t>(runs_per_config));
  Sweep sweep{opt, fn, out, progress, info_collection};
  const auto loop_start = HostClock::now();
  try {
    for (std::size_t c = 0; c < configs.size(); ++c) {
      if (!run_config(c, configs.size(), configs[c], sweep)) break;
    }
    finish(out, progress, loop_start);
  } catch (const std::exception& e) {
    fail(out, e.what());
    throw;
  } catch (...) {
    close_failed("unknown exception");
    throw;
  }
  return out;
}

}  // namespace kscope
