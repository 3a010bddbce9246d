#include "thermal/run_monitor.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>
#include <system_error>

#include "core/host_clock.hpp"
#include "cuda/device_identity.hpp"
#include "kscope/errors.hpp"
#include "nvml/nvml_library.hpp"
#include "thermal/nvml_gpu_monitor.hpp"

namespace kscope::thermal {
namespace {

/// The bus id and UUID of every CUDA device of this process, looked up now on the calling thread,
/// so that the sampler's thread maps devices to NVML without calling CUDA.
NvmlGpuMonitor::IdentityFn look_up_identities() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  std::map<int, cuda::DeviceIdentity> known;
  std::map<int, std::string> failed;
  for (int d = 0; d < count; ++d) {
    try {
      known.emplace(d, cuda::device_identity(d));
    } catch (const std::exception& e) {
      failed.emplace(d, e.what());
    }
  }
  return [known = std::move(known), failed = std::move(failed), count](int device) {
    if (const auto it = known.find(device); it != known.end()) return it->second;
    if (const auto it = failed.find(device); it != failed.end()) throw Error(it->second);
    throw Error("CUDA device " + std::to_string(device) + " does not exist (this process has " +
                std::to_string(count) + ")");
  };
}

/// look_up_identities() once per process: a process's devices do not change, and their
/// properties cost every session a CUDA call per device (profile() has made the device usable
/// before the first session asks).
NvmlGpuMonitor::IdentityFn identities_of_all_devices() {
  static const NvmlGpuMonitor::IdentityFn identities = look_up_identities();
  return identities;
}

// NVML stays loaded and initialised from the first session of the process to release_nvml():
// nvmlInit, the device handles and the first readings after it cost ~20 ms on the H200, every
// time. A failed load is not retried either (the reason is kept).
struct ResidentNvml {
  std::mutex mu;
  bool tried = false;
  std::shared_ptr<const nvml::NvmlLibrary> library;
  std::string why;
  std::shared_future<void> loading;  // preload_nvml's, while it may still run
};

ResidentNvml& resident() {
  static ResidentNvml r;
  return r;
}

// Waits for preload_nvml's load, if one was started (without the lock: the load takes it).
void wait_for_preload(ResidentNvml& r) {
  std::shared_future<void> loading;
  {
    const std::lock_guard<std::mutex> lock(r.mu);
    loading = r.loading;
  }
  if (loading.valid()) loading.wait();
}

std::shared_ptr<const nvml::NvmlLibrary> resident_nvml(std::string* why) {
  ResidentNvml& r = resident();
  wait_for_preload(r);
  const std::lock_guard<std::mutex> lock(r.mu);
  r.loading = {};
  if (!r.tried) {
    r.library = nvml::NvmlLibrary::load(&r.why);
    r.tried = true;
  }
  *why = r.why;
  return r.library;
}

}  // namespace

void preload_nvml() {
  ResidentNvml& r = resident();
  const std::lock_guard<std::mutex> lock(r.mu);
  if (r.tried || r.loading.valid()) return;
  try {
    r.loading = std::async(std::launch::async, [&r] {
                  std::string why;
                  std::shared_ptr<const nvml::NvmlLibrary> library = nvml::NvmlLibrary::load(&why);
                  const std::lock_guard<std::mutex> done(r.mu);
                  r.library = std::move(library);
                  r.why = std::move(why);
                  r.tried = true;
                }).share();
  } catch (const std::system_error&) {
    // No thread to spare: create() loads it on the caller's thread, as without a preload.
  }
}

void release_nvml() {
  ResidentNvml& r = resident();
  wait_for_preload(r);
  const std::lock_guard<std::mutex> lock(r.mu);
  r.loading = {};
  r.library.reset();  // nvmlShutdown once the last session holding it ends
  r.why.clear();
  r.tried = false;
}

std::unique_ptr<RunMonitor> RunMonitor::create(const Options& options, const Logger& log) {
  std::string why;
  std::shared_ptr<const nvml::NvmlLibrary> library = resident_nvml(&why);
  if (!library) {
    if (options.thermal.mode != "off") {
      log.warn("thermal control is off and no GPU telemetry (clocks, temperature, power) is "
               "recorded: " + why + ". Set thermal_mode to 'off' to silence this warning.");
    } else {
      log.debug("[thermal] no GPU telemetry: " + why);
    }
    return std::make_unique<RunMonitor>(options, log, nullptr, cuda::current_device);
  }
  log.debug("[thermal] NVML loaded from " + library->loaded_from());
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto monitor = std::make_unique<NvmlGpuMonitor>(library, identities_of_all_devices());
  const auto t1 = Clock::now();
  auto run_monitor =
      std::make_unique<RunMonitor>(options, log, std::move(monitor), cuda::current_device);
  if (log.debug_enabled()) {
    char line[128];
    std::snprintf(line, sizeof line,
                  "[thermal] set-up (ms): device identities %.2f, first reading and sampler %.2f",
                  milliseconds(t1 - t0), milliseconds(Clock::now() - t1));
    log.debug(line);
  }
  return run_monitor;
}

RunMonitor::RunMonitor(const Options& options, const Logger& log,
                       std::unique_ptr<GpuMonitor> monitor, std::function<int()> current_device,
                       ThermalClock clock, std::optional<double> sample_period_s)
    : log_(log) {
  if (!monitor) return;
  sampler_ = std::make_unique<TelemetrySampler>(std::move(monitor), clock,
                                                sample_period_s.value_or(kSamplePeriodSeconds));
  const int device = current_device();
  // Without thermal control nothing needs a reading before the first measured run: the thread
  // takes the first one (~0.65 ms of NVML calls) while the session starts, and before_run waits
  // for it there if it is not in yet.
  const bool read_later = options.thermal.mode == "off" && sample_period_s.has_value();
  if (read_later) {
    sampler_->watch(device);
    first_device_ = device;
  } else {
    (void)sampler_->read_now(device);
  }
  if (options.thermal.mode != "off") {
    if (options.thermal.device && *options.thermal.device != device) {
      (void)sampler_->read_now(*options.thermal.device);
    }
    controller_ = std::make_unique<ThermalController>(options, *sampler_, current_device, log, clock);
    if (!controller_->init()) controller_.reset();
  }
  recorder_ = std::make_unique<TelemetryRecorder>(*sampler_, std::move(current_device), log,
                                                  std::move(clock.now));
  if (!sample_period_s) return;
  try {
    sampler_->start();
  } catch (const std::system_error& e) {
    log.warn(std::string("GPU telemetry and thermal control see only the first reading: cannot "
                         "start the sampling thread (") + e.what() + ").");
    if (read_later) (void)sampler_->read_now(device);
    first_device_.reset();
  }
}

RunMonitor::~RunMonitor() {
  if (sampler_) sampler_->stop();
}

void RunMonitor::before_run(const RunId& run) {
  if (first_device_ && !run.warmup) {
    (void)sampler_->first_reading(*first_device_, kFirstReadingWait);
    first_device_.reset();
  }
  double waited = 0;
  if (controller_) {
    controller_->guard();
    waited = controller_->last_wait_seconds();
  }
  if (recorder_) recorder_->before_run(run, waited);
}

void RunMonitor::after_run(const RunId& run) {
  if (recorder_) recorder_->after_run(run);
}

void RunMonitor::finish() {
  if (sampler_) sampler_->stop();
  if (!controller_ || controller_->pauses() == 0) return;
  char total[32];
  std::snprintf(total, sizeof total, "%.1f", controller_->total_wait_seconds());
  log_.info("Thermal control paused " + std::to_string(controller_->pauses()) + " time" +
            (controller_->pauses() == 1 ? "" : "s") + " (" + total +
            " s in total) to let the GPU cool; thermal_cont ended at " +
            std::to_string(controller_->thermal_cont()) + "°C");
}

const std::vector<RunTelemetry>& RunMonitor::telemetry() const {
  static const std::vector<RunTelemetry> kNone;
  return recorder_ ? recorder_->telemetry() : kNone;
}

std::vector<RunTelemetry> RunMonitor::drain() { return recorder_ ? recorder_->drain() : std::vector<RunTelemetry>{}; }

}  // namespace kscope::thermal
