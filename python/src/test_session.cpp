// Test hooks behind _kscope._test_profile_without_device and _kscope._test_time_without_device.
//
// The first: the engine's real Session, extraction, transformation, info collectors, journal and
// resume (api/device_free_session.hpp), without a device (and the timeline: host phases, and
// kernels on stream 7 timed at annotation entry). A stand-in collector turns every annotation
// entered in a measured run into one "kernel" whose metric i is worth 100 (config + 1) + run + i
// (ns for the time metric); the run environment does nothing. It lets the Python tests drive
// decorators, annotations and info collectors end to end on a CPU.
//
// The second: kscope::time's real session (api/time_session.hpp) on a stand-in collector whose
// kernels are those the callable "launches" with _kscope._test_launch(name, ns), so that the
// Python tests drive kscope.time and kscope.testing.do_bench with chosen values.
//
// The only binding source that uses the engine's internal headers (src/).

#include <chrono>
#include <mutex>
#include <utility>

#include "api/device_free_session.hpp"
#include "api/time_session.hpp"
#include "bindings.hpp"
#include "core/annotation_registry.hpp"
#include "core/collector.hpp"
#include "kscope/errors.hpp"

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

}  // namespace

Results profile_without_device(std::string_view name, std::vector<Config> configs,
                               const Benchmark& fn, const Options& options) {
  return kscope::profile_without_device(name, std::move(configs), fn, options,
                                        std::make_unique<AnnotationCountingCollector>());
}


namespace {

// The kernels the callable launches through launch_test_kernel(), attributed like the cupti
// tool's launch callback attributes real ones: to the open region of a measured run.
class LaunchedKernels : public Collector {
 public:
  [[nodiscard]] std::string name() const override { return "cpu-test"; }
  void begin(const SessionInfo&) override {}
  [[nodiscard]] std::vector<KernelRecord> flush() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<KernelRecord> out;
    out.swap(records_);
    return out;
  }
  [[nodiscard]] bool flush_is_complete() const override { return true; }
  [[nodiscard]] std::vector<KernelRecord> end() override { return flush(); }
  void launch(const std::string& name, double ns) {
    auto& registry = AnnotationRegistry::instance();
    const auto s = registry.snapshot();
    if (s.annotation < 0 || !s.in_run || s.run.warmup) return;
    KernelRecord k;
    k.annotation = registry.name_of(s.annotation);
    k.kernel = name;
    k.mangled = name;
    k.run = s.run;
    k.sequence = s.sequence;
    k.metrics.push_back({kTimeMetric, ns, std::string("ns")});
    std::lock_guard<std::mutex> lock(mu_);
    records_.push_back(std::move(k));
  }

 private:
  std::mutex mu_;
  std::vector<KernelRecord> records_;
};

class NoDevice : public RunEnvironment {
 public:
  void synchronize() override {}
};

std::mutex g_launched_mu;
LaunchedKernels* g_launched = nullptr;  // the collector of the time_without_device in progress

}  // namespace

Timing time_without_device(const std::function<void()>& fn, const TimeOptions& options) {
  LaunchedKernels collector;
  NoDevice environment;
  {
    std::lock_guard<std::mutex> lock(g_launched_mu);
    g_launched = &collector;
  }
  struct Unset {
    ~Unset() {
      std::lock_guard<std::mutex> lock(g_launched_mu);
      g_launched = nullptr;
    }
  } unset;
  HostTimes times(options.verbosity >= Verbosity::kDebug);
  return time_session(fn, options, session_options(options), collector, environment, 0, times);
}

void launch_test_kernel(const std::string& name, double ns) {
  std::lock_guard<std::mutex> lock(g_launched_mu);
  if (!g_launched) throw InvalidArgument("_test_launch outside _test_time_without_device");
  g_launched->launch(name, ns);
}

}  // namespace kscope::python
