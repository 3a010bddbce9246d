#pragma once
// The metric catalogue of one chip: what `kscope query-metrics` lists and what the cupti tool
// validates metric names against, through the CUPTI host API. Works offline for any chip CUPTI
// knows ("GH100", "AD102", "GB100", ...); for_device() describes the GPU present. This header
// has no CUPTI types, so the CLI and the option checks can include it.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kscope::cupti {

class ProfilerHost;

/// One metric as `kscope query-metrics` prints it.
struct MetricInfo {
  std::string name;         ///< base name in listings, full name from find()
  std::string type;         ///< "Counter", "Ratio" or "Throughput" (ncu's "Metric Type")
  std::string unit;         ///< as ncu prints it: "ns", "byte", "%", "inst", "cycle/second", ...
  std::string description;  ///< CUPTI's description
};

class MetricCatalog {
 public:
  /// Catalogue of `chip` (case-insensitive). `availability` is a device's counter availability
  /// image (empty offline). Throws InvalidArgument listing the known chips for an unknown one.
  explicit MetricCatalog(const std::string& chip, const std::vector<std::uint8_t>& availability = {});
  /// Catalogue of CUDA device `device`: its chip and its counter availability. Needs a GPU
  /// (throws NoDeviceError "no CUDA device: ..." without one) and creates its primary context.
  [[nodiscard]] static MetricCatalog for_device(int device);
  ~MetricCatalog();
  MetricCatalog(MetricCatalog&&) noexcept;
  MetricCatalog& operator=(MetricCatalog&&) noexcept;

  /// Chips this CUPTI describes.
  [[nodiscard]] static std::vector<std::string> supported_chips();
  /// The chip, as CUPTI spells it ("GH100").
  [[nodiscard]] const std::string& chip() const;

  /// Base metrics whose name contains `filter` (case-insensitive; empty: all), sorted by name.
  /// CUPTI's internal "UNIT.TriageCompute.*" set entries are left out.
  [[nodiscard]] std::vector<MetricInfo> list(const std::string& filter = "") const;
  /// A full metric name (base name plus rollup/submetric, e.g. "dram__bytes_read.sum");
  /// nullopt when the chip has no such metric or the name lacks its rollup.
  [[nodiscard]] std::optional<MetricInfo> find(const std::string& name) const;
  /// Up to `max_results` valid full names closest to `name`, best first.
  [[nodiscard]] std::vector<std::string> suggest(const std::string& name,
                                                 std::size_t max_results = 3) const;
  /// Throws NotSupportedError for names only ncu serves, InvalidArgument with the reference's
  /// text ("Invalid value [...] for 'metrics' parameter ...") plus "did you mean" lines for
  /// unknown names, and InvalidArgument when CUPTI cannot schedule the set together. `call`
  /// names the profiling call in the text (Options::call_name).
  void validate(const std::vector<std::string>& metrics,
                const std::string& call = "kscope::profile()") const;
  /// Replay passes the set needs (validates it first). Duplicates count once.
  [[nodiscard]] std::size_t passes(const std::vector<std::string>& metrics) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kscope::cupti
