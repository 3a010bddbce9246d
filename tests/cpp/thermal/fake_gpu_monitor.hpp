#pragma once
// A scripted GpuMonitor and a fake clock for thermal-control and telemetry tests.

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "thermal/gpu_monitor.hpp"
#include "thermal/thermal_clock.hpp"

namespace kscope::testing {

class FakeGpuMonitor : public thermal::GpuMonitor {
 public:
  /// A headroom answer meaning "cannot be read".
  static constexpr int kUnreadable = -1000;
  /// Headroom answers in order; the last one repeats.
  std::vector<int> headrooms{40};
  std::optional<int> temperature_c = 70;
  /// Ordinals select() accepts.
  std::set<int> devices{0, 1};
  /// Every ordinal select() switched to, in order.
  std::vector<int> selections;
  /// What read() returns; its sm_clock_mhz grows by one per read so readings can be told apart.
  TelemetrySample sample;
  /// Shared event log (optional), to check the order of calls across fakes.
  std::vector<std::string>* events = nullptr;
  std::string name = "fake";
  int headroom_calls = 0;
  int reads = 0;

  bool select(int device, std::string* why) override {
    if (!devices.count(device)) {
      if (why) *why = "no GPU " + std::to_string(device);
      return false;
    }
    if (device != selected_) selections.push_back(device);
    selected_ = device;
    return true;
  }
  std::string describe() const override { return "fake GPU " + std::to_string(selected_); }
  std::optional<int> headroom(std::string* why) override {
    const int h = headrooms[std::min<std::size_t>(headroom_calls, headrooms.size() - 1)];
    ++headroom_calls;
    if (events) events->push_back(name + " headroom");
    if (h != kUnreadable) return h;
    if (why) *why = "Not Supported (3)";
    return std::nullopt;
  }
  std::optional<int> temperature() override { return temperature_c; }
  TelemetrySample read() override {
    if (events) events->push_back(name + " read");
    TelemetrySample s = sample;
    if (s.sm_clock_mhz) *s.sm_clock_mhz += reads;
    ++reads;
    return s;
  }

 private:
  int selected_ = -1;
};

/// Time that only moves when slept through.
struct FakeClock {
  double now = 1000;
  int sleeps = 0;
  std::vector<double> slept;
  thermal::ThermalClock clock() {
    return {[this] { return now; },
            [this](double s) {
              now += s;
              ++sleeps;
              slept.push_back(s);
            }};
  }
};

}  // namespace kscope::testing
