#pragma once
// The CUPTI Profiler Host API (cupti_profiler_host.h) behind a small RAII class: one host object
// for one chip. It lists metrics, describes them, builds config images, counts passes and
// evaluates decoded counter data. Everything here works offline (no driver, no GPU): the CLI and
// the unit tests use it with a chip name such as "GH100".

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collect/cupti/range_profiler_api.hpp"

namespace kscope::cupti {

/// Counter, ratio or throughput (CUpti_MetricType).
enum class MetricKind { kCounter = 0, kRatio = 1, kThroughput = 2 };

/// What the host API says about one metric name (base name or full name).
struct MetricProperties {
  MetricKind kind = MetricKind::kCounter;
  std::string description;
  std::string hw_unit;   ///< the hardware unit that counts it ("dram", "sm", ...)
  std::string dim_unit;  ///< CUPTI's dimension ("nanosecond", "byte", "percent", ...)
};

class ProfilerHost : public MetricEvaluator {
 public:
  /// A host object for `chip` (as supported_chips() spells it). `availability` is the device's
  /// counter availability image, or empty offline. Throws InvalidArgument naming the supported
  /// chips when CUPTI does not know `chip`.
  explicit ProfilerHost(const std::string& chip, const std::vector<std::uint8_t>& availability = {});
  ~ProfilerHost() override;
  ProfilerHost(const ProfilerHost&) = delete;             // owns a CUPTI object
  ProfilerHost& operator=(const ProfilerHost&) = delete;  // owns a CUPTI object

  /// Chips this CUPTI can describe (e.g. "GH100", "AD102", "GB100").
  [[nodiscard]] static std::vector<std::string> supported_chips();

  [[nodiscard]] const std::string& chip() const { return chip_; }

  /// Base metric names of one kind (without rollup or submetric suffix).
  [[nodiscard]] std::vector<std::string> base_metrics(MetricKind kind) const;
  /// Suffixes valid after `base` (".sum", ".avg.pct_of_peak_sustained_elapsed", ...).
  [[nodiscard]] std::vector<std::string> submetrics(const std::string& base, MetricKind kind) const;
  /// Properties of a base or full metric name; false when the chip has no such metric.
  bool properties(const std::string& name, MetricProperties* out) const;

  /// Adds `metrics` to this host object and returns the config image that schedules them.
  /// A host object takes one metric set in its life: use a fresh one per set. Throws
  /// InvalidArgument when CUPTI rejects the set (e.g. device-level NVLink/PCIe metrics mixed with
  /// context-level ones).
  [[nodiscard]] std::vector<std::uint8_t> config_image(const std::vector<std::string>& metrics);
  /// Replay passes a config image needs.
  [[nodiscard]] static std::size_t num_passes(const std::vector<std::uint8_t>& config_image);

  /// Evaluates `metrics` (all in the config) for range `range` of a decoded counter data image.
  void evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                const std::vector<const char*>& metrics, double* values) const override;

 private:
  void* host_ = nullptr;  // CUpti_Profiler_Host_Object*
  std::string chip_;
  std::vector<std::uint8_t> availability_;
};

}  // namespace kscope::cupti
