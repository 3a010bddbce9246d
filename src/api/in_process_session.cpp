#include "api/in_process_session.hpp"

#include <chrono>

#include "api/device_lock.hpp"
#include "api/region_graphs.hpp"
#include "api/shard_progress.hpp"
#include "api/session_tables.hpp"
#include "core/session.hpp"

namespace kscope {
namespace {

// The device's environment with the thermal guard and telemetry around every run.
class MonitoredEnvironment : public RunEnvironment {
 public:
  MonitoredEnvironment(RunEnvironment& device, thermal::RunMonitor& monitor)
      : device_(device), monitor_(monitor) {}
  void before_run(const RunId& run) override {
    device_.before_run(run);
    monitor_.before_run(run);
  }
  void before_region(const std::string& annotation) override { device_.before_region(annotation); }
  void synchronize() override { device_.synchronize(); }
  void recover() override { device_.recover(); }
  void after_run(const RunId& run) override {
    device_.after_run(run);
    monitor_.after_run(run);
  }

 private:
  RunEnvironment& device_;
  thermal::RunMonitor& monitor_;
};

}  // namespace

Results run_in_process(std::string_view name, int id, const std::vector<Config>& configs,
                       const Benchmark& fn, const Options& opt, SweepPlan plan,
                       InProcessTool tool) {
  Results::Data d = session_data(name, id, opt, configs);
  d.metadata = tool.metadata;
  d.metadata.shard_index = static_cast<int>(plan.shard.index);
  d.metadata.shard_count = static_cast<int>(plan.shard.count);
  std::optional<ResumePlan>& resume = plan.resume;
  const Logger log(opt);
  const std::vector<Config>& to_measure = plan.to_measure;
  std::unique_ptr<report::JournalWriter> journal;
  HostTimes& times = tool.times;
  const std::string prefix =
      start_session(&d, to_measure, resume ? &*resume : nullptr, log, &journal);
  times.step("journal open");
  thermal::RunMonitor& monitor = *tool.monitor;
  MonitoredEnvironment environment(*tool.environment, monitor);
  journal->set_telemetry_source([&] { return monitor.drain(); });
  Session session(*tool.collector, environment, journal.get(), log);
  session.set_host_times(&times);
  const SessionInfo info{d.name, d.id, to_measure.size(), &opt, tool.device, prefix,
                         tool.environment.get()};
  const auto t0 = std::chrono::steady_clock::now();
  Session::Output out;
  if (!to_measure.empty()) {
    // Ranks sharing a GPU measure one after another, and so do sessions reading its counters.
    auto lock = lock_for_shard(plan.shard, d.metadata.uuid, log);
    if (!lock && tool.collector->reads_counters(opt) && !d.metadata.uuid.empty()) {
      lock.emplace(d.metadata.uuid, log);
    }
    // Rank 0 reports the whole sweep's progress from the ranks' journals.
    std::optional<ShardProgress> all_ranks;
    if (plan.shard.sharded() && plan.shard.index == 0) {
      all_ranks.emplace(log, plan.shard, plan.base_prefix, d.name, d.id, configs.size(), opt.runs);
      session.set_after_config([&] {
        all_ranks->update();
        return false;
      });
    }
    out = session.run(info, to_measure, session_benchmark(fn, opt));
    if (all_ranks) {
      journal->finish();  // this rank's last lines are on disk before they are counted
      all_ranks->finish();
    }
  } else {
    journal->close("");  // a journal holding every config complete leaves nothing to measure
  }
  d.metadata.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log.info("Profiling completed successfully !");
  monitor.finish();
  times.step("telemetry stop");

  d.telemetry = monitor.telemetry();
  if (resume) {
    d.telemetry.insert(d.telemetry.begin(), resume->telemetry.begin(), resume->telemetry.end());
  }
  return end_session(std::move(d), out, resume ? &*resume : nullptr, *journal, prefix, log, &times);
}

}  // namespace kscope
