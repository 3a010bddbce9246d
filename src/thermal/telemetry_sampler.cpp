#include "thermal/telemetry_sampler.hpp"

#include <chrono>
#include <exception>
#include <utility>
#include <vector>

namespace kscope::thermal {

TelemetrySampler::TelemetrySampler(std::unique_ptr<GpuMonitor> monitor, ThermalClock clock,
                                   double period_s)
    : monitor_(std::move(monitor)), clock_(std::move(clock)), period_(period_s) {}

TelemetrySampler::~TelemetrySampler() { stop(); }

void TelemetrySampler::read_device(int device) {
  DeviceReading r;
  std::string description;
  {
    const std::lock_guard<std::mutex> lock(monitor_mutex_);
    Known& known = known_[device];
    try {
      if (!monitor_->select(device, &r.why)) {
        r.state = DeviceReading::State::kMissing;
      } else {
        r.state = DeviceReading::State::kRead;
        r.sample = monitor_->read();
        r.taken_at = clock_.now();
        if (known.description.empty()) known.description = monitor_->describe();
        // Why the headroom is unreadable, asked once (one more call) and remembered.
        if (!r.sample.headroom_c) {
          if (known.headroom_why.empty()) {
            std::string why;
            (void)monitor_->headroom(&why);
            known.headroom_why = why.empty() ? "not reported" : why;
          }
          r.why = known.headroom_why;
        }
      }
    } catch (const std::exception& e) {
      r = DeviceReading{};
      r.state = DeviceReading::State::kMissing;
      r.why = e.what();
    }
    description = known.description;
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  DeviceReading& published = readings_[device];
  r.count = published.count + 1;
  published = std::move(r);
  if (!description.empty()) descriptions_[device] = std::move(description);
  read_cv_.notify_all();
}

DeviceReading TelemetrySampler::read_now(int device) {
  read_device(device);
  const std::lock_guard<std::mutex> lock(mutex_);
  return readings_[device];
}

void TelemetrySampler::watch(int device) {
  const std::lock_guard<std::mutex> lock(mutex_);
  readings_.emplace(device, DeviceReading{});  // pending
  wake_ = true;
  wake_cv_.notify_one();
}

DeviceReading TelemetrySampler::first_reading(int device, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  read_cv_.wait_for(lock, timeout, [&] {
    const auto it = readings_.find(device);
    return it == readings_.end() || it->second.state != DeviceReading::State::kPending;
  });
  const auto it = readings_.find(device);
  return it != readings_.end() ? it->second : DeviceReading{};
}

void TelemetrySampler::sample_once() {
  std::vector<int> devices;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    wake_ = false;
    for (const auto& [device, r] : readings_) {
      if (r.state != DeviceReading::State::kMissing) devices.push_back(device);
    }
  }
  for (const int device : devices) read_device(device);
}

void TelemetrySampler::loop() {
  using Clock = std::chrono::steady_clock;
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(period_));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    const auto round = Clock::now();
    lock.unlock();
    try {
      sample_once();
    } catch (...) {
      // Only allocation can fail here (read_device catches the monitor's errors); keep the
      // previous readings and try again next period.
    }
    lock.lock();
    wake_cv_.wait_until(lock, round + period, [this] { return stop_ || wake_; });
  }
}

void TelemetrySampler::start() {
  if (thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = false;
  }
  thread_ = std::thread(&TelemetrySampler::loop, this);
}

void TelemetrySampler::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

DeviceReading TelemetrySampler::reading(int device) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = readings_.find(device);
  if (it != readings_.end()) return it->second;
  readings_.emplace(device, DeviceReading{});  // pending: the thread reads it right away
  wake_ = true;
  wake_cv_.notify_one();
  return DeviceReading{};
}

std::string TelemetrySampler::describe(int device) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = descriptions_.find(device);
  return it != descriptions_.end() ? it->second : "CUDA device " + std::to_string(device);
}

}  // namespace kscope::thermal
