// One GPU run tells what the range profiler does on this machine: the verified call sequence
// with every CUPTI call's result and duration printed, then experiments whose outcome decides
// later optimisations (batching several sessions into one decode). Experiments print their
// findings and never fail the test; only the verified sequence asserts.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "collect/cupti/profiler_device.hpp"
#include "collect/cupti/profiler_host.hpp"
#include "collect/cupti/range_profiler.hpp"
#include "counter_kernels.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {
using namespace kscope::testing;
using Clock = std::chrono::steady_clock;

void print(std::string_view line) { std::printf("    %.*s\n", static_cast<int>(line.size()), line.data()); }

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

const std::vector<std::string> kMetrics = {"gpu__time_duration.sum", "dram__bytes_read.sum"};

std::vector<const char*> pointers(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  for (const auto& n : names) out.push_back(n.c_str());
  return out;
}

std::size_t print_ranges(RangeProfiler& rp, ProfilerHost& host, const std::vector<std::uint8_t>& image) {
  const auto ptrs = pointers(kMetrics);
  const std::size_t n = rp.num_ranges(image);
  for (std::size_t i = 0; i < n; ++i) {
    double v[2] = {0, 0};
    host.evaluate(image, i, ptrs, v);
    std::printf("    range %zu '%s': %s=%.0f %s=%.0f\n", i, rp.range_name(image, i).c_str(),
                kMetrics[0].c_str(), v[0], kMetrics[1].c_str(), v[1]);
  }
  return n;
}

// Everything one experiment needs: device, workload, a host object with the 1-pass metric set,
// its config image, a range profiler on the primary context (tracing every call) and a counter
// data image for 16 ranges.
struct Rig {
  Rig() : host(device.chip, device.availability), config(host.config_image(kMetrics)),
          rp(device.context, print), image(rp.counter_data_size(pointers(kMetrics), 16)) {
    rp.set_tracing(true);
  }
  // Reinitialises the image and configures one auto-range, user-replay session.
  void configure() {
    rp.initialize_image(image);
    rp.set_config(config, image, {false, false, 16});
  }
  DeviceSetup device;
  Workload work;
  ProfilerHost host;
  std::vector<std::uint8_t> config;
  RangeProfiler rp;
  std::vector<std::uint8_t> image;
};

TEST(RangeProfilerDiagnostic, VerifiedSequenceStepByStep) {
  Rig r;
  std::printf("  config image %zu bytes, %zu pass(es)\n", r.config.size(), ProfilerHost::num_passes(r.config));
  r.configure();
  r.rp.start();
  r.work.kernels(3);
  const auto stop = r.rp.stop();
  EXPECT_TRUE(stop.all_passes_submitted);
  EXPECT_EQ(r.rp.decode(), 0u);
  EXPECT_EQ(print_ranges(r.rp, r.host, r.image), 3u);
}

TEST(RangeProfilerDiagnostic, ExperimentTwoSessionsOneDecode) {
  Rig r;
  try {
    r.configure();
    r.rp.start();
    r.work.kernels(2);
    (void)r.rp.stop();
    r.rp.start();  // second session without SetConfig and without decoding the first
    r.work.kernels(3);
    (void)r.rp.stop();
    const auto dropped = r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image);
    std::printf("  FINDING two-sessions-one-decode: %zu ranges (5 = batching works), %zu dropped\n", n, dropped);
  } catch (const Error& e) {
    std::printf("  FINDING two-sessions-one-decode: failed: %s\n", e.what());
  }
}

TEST(RangeProfilerDiagnostic, ExperimentRestartWithoutSetConfig) {
  Rig r;
  try {
    r.configure();
    r.rp.start();
    r.work.kernels(2);
    (void)r.rp.stop();
    (void)r.rp.decode();
    std::printf("  after session 1: %zu ranges\n", print_ranges(r.rp, r.host, r.image));
    r.rp.start();  // no SetConfig, no image reinitialisation
    r.work.kernels(3);
    (void)r.rp.stop();
    (void)r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image);
    std::printf("  FINDING restart-without-setconfig: %zu ranges after session 2 (5 = appended, 3 = "
                "replaced)\n", n);
  } catch (const Error& e) {
    std::printf("  FINDING restart-without-setconfig: failed: %s\n", e.what());
  }
}

TEST(RangeProfilerDiagnostic, CostOfOneSessionPerAnnotation) {
  Rig r;
  r.rp.set_tracing(false);
  const int sessions = 50;
  const auto t0 = Clock::now();
  for (int i = 0; i < sessions; ++i) {
    r.configure();
    r.rp.start();
    r.work.kernels(1);
    (void)r.rp.stop();
    (void)r.rp.decode();
    double v[2];
    r.host.evaluate(r.image, 0, pointers(kMetrics), v);
  }
  const double total = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  const auto t1 = Clock::now();
  for (int i = 0; i < sessions; ++i) r.work.kernels(1);
  const double bare = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
  std::printf("  FINDING session-cost: %.3f ms per one-kernel session (bare kernel+sync %.3f ms)\n",
              total / sessions, bare / sessions);
  for (const auto& [call, t] : r.rp.step_times()) {
    std::printf("    %-48s %4zu calls %9.3f ms total %7.3f ms each\n", call.c_str(), t.calls,
                t.milliseconds, t.milliseconds / static_cast<double>(t.calls));
  }
}

}  // namespace
}  // namespace kscope::cupti
