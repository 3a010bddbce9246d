// A bandwidth kernel over several sizes: bytes moved / kscope's kernel time must lie between 50 %
// and 105 % of a device-to-device copy rate measured in the same process (both count bytes read
// plus bytes written).
#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>

#include "kscope/kscope.hpp"
#include "support/gpu_test.hpp"
#include "test_kernels.hpp"

namespace kscope {
namespace {
using namespace kscope::testing;

TEST(BandwidthGpuTest, VaddBandwidthIsCloseToTheCopyRate) {
  const std::size_t max_n = std::size_t{1} << 27;  // 512 MiB per array
  float* a = device_floats(max_n);
  float* b = device_floats(max_n);
  float* c = device_floats(max_n);
  launch_fill(a, 1.0f, max_n);
  launch_fill(b, 2.0f, max_n);
  const double copy_rate = measure_copy_rate(std::size_t{1} << 30);

  Options o;
  o.runs = 10;
  o.verbosity = Verbosity::kSilent;
  o.output_prefix = scratch_dir("bandwidth");
  o.derive_metric = [](const std::vector<double>& m, const Config& cfg) {
    const double bytes = 3.0 * sizeof(float) * cfg.get<double>("n");
    return std::vector<DerivedValue>{{"bandwidth", bytes / m[0], std::string("GB/s")}};
  };
  const auto r = profile("vadd_bandwidth", configs({1 << 24, 1 << 25, 1 << 26, 1 << 27}, "n"),
                         [&](const Config& cfg) {
                           Annotation range("vadd");
                           launch_vadd(a, b, c, cfg.get<std::size_t>("n"));
                         }, o);
  std::printf("device-to-device copy rate: %.1f GB/s (read + write)\n", copy_rate / 1e9);
  std::printf("%12s %14s %12s %8s\n", "n", "time (ns)", "GB/s", "% copy");
  for (const auto& row : r.rows("bandwidth")) {
    const double n = r.configs()[row.config].get<double>("n");
    double ns = 0;
    for (const auto& t : r.rows(kTimeMetric)) {
      if (t.config == row.config) ns = t.avg;
    }
    const double ratio = row.avg * 1e9 / copy_rate;
    std::printf("%12.0f %14.0f %12.1f %7.1f%%\n", n, ns, row.avg, 100 * ratio);
    EXPECT_GE(ratio, 0.50) << "n=" << n;
    EXPECT_LE(ratio, 1.05) << "n=" << n;
  }
  r.print(std::cout);
  free_device(a);
  free_device(b);
  free_device(c);
}

}  // namespace
}  // namespace kscope
