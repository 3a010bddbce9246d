#pragma once
// Fakes for thermal-control and telemetry tests: a scripted GpuMonitor (what the sampler reads),
// scripted readings (what thermal control reads, without a sampler) and a fake clock.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "thermal/gpu_monitor.hpp"
#include "thermal/telemetry_source.hpp"
#include "thermal/thermal_clock.hpp"

namespace kscope::testing {

/// A headroom answer meaning "cannot be read".
inline constexpr int kUnreadable = -1000;

/// A scripted GPU for the sampler. Set it up before the sampler's thread starts and look at the
/// plain members only once it is stopped; `reads`, calls_from() and caller_threads() are safe to
/// look at any time.
class FakeGpuMonitor : public thermal::GpuMonitor {
 public:
  static constexpr int kUnreadable = testing::kUnreadable;
  /// Headroom of each read() in order; the last one repeats.
  std::vector<int> headrooms{40};
  std::optional<int> temperature_c = 70;
  /// Ordinals select() accepts.
  std::set<int> devices{0, 1};
  /// Every ordinal select() switched to, in order.
  std::vector<int> selections;
  /// Reads of each device.
  std::map<int, int> reads_of;
  /// What read() returns (plus the scripted headroom and temperature); its sm_clock_mhz grows by
  /// one per read so readings can be told apart.
  TelemetrySample sample;
  /// Time each GPU query takes (read() makes six, as NVML does; headroom() one): a slow driver.
  std::chrono::microseconds query_time{0};
  /// When set, the headroom every read() sees (instead of `headrooms`), changeable while the
  /// sampler runs.
  std::atomic<int>* live_headroom = nullptr;
  std::atomic<int> reads{0};
  int headroom_calls = 0;

  bool select(int device, std::string* why) override {
    note_caller();
    if (!devices.count(device)) {
      if (why) *why = "no GPU " + std::to_string(device);
      return false;
    }
    if (device != selected_) selections.push_back(device);
    selected_ = device;
    return true;
  }
  std::string describe() const override { return "fake GPU " + std::to_string(selected_); }
  /// The headroom of the latest read(); "Not Supported (3)" when it was unreadable.
  std::optional<int> headroom(std::string* why) override {
    note_caller();
    if (query_time.count() > 0) std::this_thread::sleep_for(query_time);
    ++headroom_calls;
    if (last_headroom_ != kUnreadable) return last_headroom_;
    if (why) *why = "Not Supported (3)";
    return std::nullopt;
  }
  TelemetrySample read() override {
    note_caller();
    if (query_time.count() > 0) std::this_thread::sleep_for(6 * query_time);
    const int n = reads.load();
    last_headroom_ =
        live_headroom
            ? live_headroom->load()
            : headrooms[std::min<std::size_t>(static_cast<std::size_t>(n), headrooms.size() - 1)];
    TelemetrySample s = sample;
    if (s.sm_clock_mhz) *s.sm_clock_mhz += n;
    s.temperature_c = temperature_c;
    if (last_headroom_ != kUnreadable) s.headroom_c = last_headroom_;
    ++reads_of[selected_];
    reads.store(n + 1);
    return s;
  }
  /// How many calls `thread` made to the monitor.
  int calls_from(std::thread::id thread) const {
    const std::lock_guard<std::mutex> lock(callers_mutex_);
    const auto it = callers_.find(thread);
    return it == callers_.end() ? 0 : it->second;
  }
  /// How many threads called the monitor.
  std::size_t caller_threads() const {
    const std::lock_guard<std::mutex> lock(callers_mutex_);
    return callers_.size();
  }

 private:
  void note_caller() {
    const std::lock_guard<std::mutex> lock(callers_mutex_);
    ++callers_[std::this_thread::get_id()];
  }
  int selected_ = -1;
  int last_headroom_ = 40;
  mutable std::mutex callers_mutex_;
  std::map<std::thread::id, int> callers_;
};

/// Readings for thermal control without a sampler: every reading() is a fresh one, its headroom
/// the next of `headrooms` (so a script lists the headroom each guard and each poll sees).
class FakeReadings : public thermal::TelemetrySource {
 public:
  /// Headroom answers in order; the last one repeats.
  std::vector<int> headrooms{40};
  std::optional<int> temperature_c = 70;
  /// Ordinals that can be read.
  std::set<int> devices{0, 1};
  /// Ordinals not read yet (kPending) until removed from here.
  std::set<int> pending;
  /// Every ordinal asked for, in order, when it differs from the previous one.
  std::vector<int> selections;
  int headroom_calls = 0;

  thermal::DeviceReading reading(int device) override {
    using State = thermal::DeviceReading::State;
    if (device != last_) selections.push_back(device);
    last_ = device;
    thermal::DeviceReading r;
    if (pending.count(device)) return r;
    if (!devices.count(device)) {
      r.state = State::kMissing;
      r.why = "no GPU " + std::to_string(device);
      return r;
    }
    r.state = State::kRead;
    const int h = headrooms[std::min<std::size_t>(static_cast<std::size_t>(headroom_calls),
                                                  headrooms.size() - 1)];
    ++headroom_calls;
    if (h != kUnreadable) {
      r.sample.headroom_c = h;
    } else {
      r.why = "Not Supported (3)";
    }
    r.sample.temperature_c = temperature_c;
    r.count = static_cast<std::uint64_t>(headroom_calls);
    return r;
  }
  std::string describe(int device) const override { return "fake GPU " + std::to_string(device); }

 private:
  int last_ = -1;
};

/// Time that only moves when slept through; `on_sleep` runs after each sleep (e.g. a sampler
/// round, standing for the sampler's thread while thermal control pauses).
struct FakeClock {
  double now = 1000;
  int sleeps = 0;
  std::vector<double> slept;
  std::function<void()> on_sleep;
  thermal::ThermalClock clock() {
    return {[this] { return now; },
            [this](double s) {
              now += s;
              ++sleeps;
              slept.push_back(s);
              if (on_sleep) on_sleep();
            }};
  }
};

/// Waits (up to 10 s, checking every millisecond) until `done()`; false when it never was. For
/// tests of the sampler's thread.
template <class Done>
bool eventually(Done done) {
  for (int i = 0; i < 10000 && !done(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done();
}

}  // namespace kscope::testing
