#pragma once
// The range profiler on the device with every call traced: what the diagnostic GPU test
// (range_profiler_diagnostic_gpu_test.cpp) and the range profiler probe
// (bench/probes/range_profiler_probe.cpp) run their sequences on.

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collect/cupti/profiler_device.hpp"
#include "collect/cupti/profiler_host.hpp"
#include "collect/cupti/range_profiler.hpp"
#include "counter_kernels.hpp"

namespace kscope::cupti::diagnostic {
using namespace kscope::testing;
using Clock = std::chrono::steady_clock;

inline void print(std::string_view line) { std::printf("    %.*s\n", static_cast<int>(line.size()), line.data()); }

struct DeviceSetup {
  DeviceSetup() {
    initialize_profiler();
    check_device_supported(0);
    chip = device_chip_name(0);
    context = primary_context(0);
    availability = counter_availability(context);
    std::printf("  chip %s, counter availability image %zu bytes\n", chip.c_str(), availability.size());
  }
  std::string chip;
  void* context = nullptr;
  std::vector<std::uint8_t> availability;
};

struct Workload {
  Workload() : bytes(64u << 20) {
    data = device_zeroed(bytes);
    sink = static_cast<float*>(device_zeroed(64));
  }
  ~Workload() {
    device_free(data);
    device_free(sink);
  }
  void kernels(int n) {
    for (int i = 0; i < n; ++i) launch_read(data, bytes, sink);
    device_synchronize();
  }
  std::size_t bytes;
  void* data;
  float* sink;
};

inline const std::vector<std::string> kMetrics = {"gpu__time_duration.sum", "dram__bytes_read.sum"};
// One pass on GH100: the cache state a kernel starts from shows in its duration, its DRAM writes
// (dirty lines of an earlier kernel written back) and its L2 hits.
inline const std::vector<std::string> kCacheMetrics = {"gpu__time_duration.sum", "dram__bytes_read.sum",
                                                "dram__bytes_write.sum",
                                                "lts__t_sectors_srcunit_tex_lookup_hit.sum"};

inline std::vector<const char*> pointers(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  for (const auto& n : names) out.push_back(n.c_str());
  return out;
}

inline std::vector<double> evaluate(ProfilerHost& host, const std::vector<std::uint8_t>& image,
                             std::size_t range, const std::vector<std::string>& metrics) {
  std::vector<double> v(metrics.size(), 0.0);
  host.evaluate(image, range, pointers(metrics), v.data());
  return v;
}

inline std::size_t print_ranges(RangeProfiler& rp, ProfilerHost& host,
                         const std::vector<std::uint8_t>& image,
                         const std::vector<std::string>& metrics = kMetrics) {
  const std::size_t n = rp.num_ranges(image);
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = evaluate(host, image, i, metrics);
    std::printf("    range %zu '%s':", i, rp.range_name(image, i).c_str());
    for (std::size_t m = 0; m < metrics.size(); ++m)
      std::printf(" %s=%.0f", metrics[m].c_str(), v[m]);
    std::printf("\n");
  }
  return n;
}

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Everything one experiment needs: device, workload, a host object with a metric set (1 pass
// unless said otherwise), its config image, a range profiler on the primary context (tracing
// every call) and a counter data image for `ranges` ranges.
struct Rig {
  explicit Rig(std::vector<std::string> m = kMetrics, std::size_t r = 16)
      : metrics(std::move(m)),
        ranges(r),
        host(device.chip, device.availability),
        config(host.config_image(metrics)),
        rp(device.context, print),
        image(rp.counter_data_size(pointers(metrics), ranges)) {
    rp.set_tracing(true);
  }
  // Reinitialises the image and configures one auto-range session (user replay by default).
  void configure(bool kernel_replay = false) {
    rp.initialize_image(image);
    rp.set_config(config, image, {false, kernel_replay, ranges});
  }
  DeviceSetup device;
  Workload work;
  std::vector<std::string> metrics;
  std::size_t ranges;
  ProfilerHost host;
  std::vector<std::uint8_t> config;
  RangeProfiler rp;
  std::vector<std::uint8_t> image;
};

}  // namespace kscope::cupti::diagnostic
