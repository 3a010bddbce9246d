// Test hook behind _kscope._test_profile_without_device: the engine's real Session, extraction,
// transformation, info collectors, journal and resume (api/device_free_session.hpp), without a
// device (and the timeline: host phases, and kernels on stream 7 timed at annotation entry). A
// stand-in collector turns every
// annotation entered in a measured run into one "kernel" whose metric i is worth
// 100 (config + 1) + run + i (ns for the time metric); the run environment does nothing. It lets
// the Python tests drive decorators, annotations and info collectors end to end on a CPU. The only
// binding source that uses the engine's internal headers (src/).

#include <chrono>
#include <mutex>
#include <utility>

#include "api/device_free_session.hpp"
#include "bindings.hpp"
#include "core/annotation_registry.hpp"
#include "core/collector.hpp"

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

}  // namespace kscope::python
