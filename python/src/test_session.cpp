// Test hook behind _kscope._test_profile_without_device: the engine's real Session, extraction,
// transformation, info collectors, journal and resume (api/in_process_session.hpp), without a
// device (and the timeline: host phases, and kernels on stream 7 timed at annotation entry). A
// stand-in collector turns every
// annotation entered in a measured run into one "kernel" whose metric i is worth
// 100 (config + 1) + run + i (ns for the time metric); the run environment does nothing. It lets
// the Python tests drive decorators, annotations and info collectors end to end on a CPU. The only
// binding source that uses the engine's internal headers (src/).

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <utility>

#include "api/in_process_session.hpp"
#include "api/sweep_plan.hpp"
#include "bindings.hpp"
#include "core/annotation_registry.hpp"
#include "core/collector.hpp"
#include "core/logger.hpp"
#include "core/run_environment.hpp"
#include "core/session.hpp"
#include "thermal/run_monitor.hpp"

namespace kscope::python {
namespace {

class AnnotationCountingCollector : public Collector {
 public:
  [[nodiscard]] std::string name() const override { return "cpu-test"; }
  void begin(const SessionInfo& info) override {
    metrics_ = info.options->metrics;
    token_ = AnnotationRegistry::instance().add_listener(
        [this](bool entering, const std::string& annotation) {
          if (entering) record(annotation);
        });
  }
  // Like the cupti tool, hands over what finished runs recorded whenever the journal is written.
  [[nodiscard]] std::vector<KernelRecord> flush() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<KernelRecord> out;
    out.swap(records_);
    return out;
  }
  [[nodiscard]] std::vector<KernelRecord> end() override {
    abort();
    return flush();
  }
  void abort() noexcept override {
    if (token_ != 0) AnnotationRegistry::instance().remove_listener(token_);
    token_ = 0;
  }

 private:
  void record(const std::string& annotation) {
    const auto s = AnnotationRegistry::instance().snapshot();
    if (!s.in_run || s.run.warmup) return;
    KernelRecord k;
    k.annotation = annotation;
    k.kernel = annotation + "_kernel";
    k.run = s.run;
    k.sequence = s.sequence;
    // A made-up GPU time on the session's clock, so that the timeline and the trace have kernels.
    k.start_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now().time_since_epoch())
                     .count();
    k.end_ns = *k.start_ns + 100 * static_cast<std::int64_t>(s.run.config + 1) +
               static_cast<std::int64_t>(s.run.run);
    k.stream = 7;
    for (std::size_t i = 0; i < metrics_.size(); ++i) {
      const double value = 100.0 * static_cast<double>(s.run.config + 1) +
                           static_cast<double>(s.run.run) + static_cast<double>(i);
      k.metrics.push_back({metrics_[i], value,
                           metrics_[i] == kTimeMetric ? std::optional<std::string>("ns")
                                                      : std::nullopt});
    }
    std::lock_guard<std::mutex> lock(mu_);
    records_.push_back(std::move(k));
  }

  std::vector<std::string> metrics_;
  std::size_t token_ = 0;
  std::mutex mu_;
  std::vector<KernelRecord> records_;
};

class NoDevice : public RunEnvironment {
 public:
  void synchronize() override {}
};

}  // namespace

Results profile_without_device(std::string_view name, std::vector<Config> configs,
                               const Benchmark& fn, const Options& options) {
  options.validate();
  if (configs.empty()) throw ConfigError("configs cannot be empty");
  validate_info_collectors(options.info_collectors, configs.front().names(), name);
  for (std::size_t i = 0; i < configs.size(); ++i) configs[i].set_index(i);
  Options opt = options;
  const ShardSpec shard = resolve_shard(opt.shard, [](const char* v) { return std::getenv(v); });
  const std::string base_prefix = opt.output_prefix;
  opt.output_prefix = shard_prefix(opt.output_prefix, shard);
  const Logger log(opt);
  SweepPlan plan = plan_sweep(name, configs, opt, log, base_prefix);
  InProcessTool tool;
  tool.metadata.gpu = "none (CPU test session)";
  tool.metadata.host = "localhost";
  tool.metadata.tool = options.tool;
  tool.collector = std::make_unique<AnnotationCountingCollector>();
  tool.environment = std::make_unique<NoDevice>();
  tool.monitor = std::make_unique<thermal::RunMonitor>(opt, log, nullptr, [] { return 0; });
  return run_in_process(name, 0, configs, fn, opt, std::move(plan), std::move(tool));
}

}  // namespace kscope::python
