#include "collect/cupti/event_timer.hpp"

#include <cuda_runtime_api.h>

#include <utility>

#include "core/annotation_registry.hpp"
#include "kscope/errors.hpp"
#include "kscope/options.hpp"

namespace kscope::cupti {
namespace {

std::string cuda_failure(const char* call, cudaError_t code) {
  return std::string("duration_source 'events': ") + call + " failed with " +
         cudaGetErrorName(code) + " (" + std::to_string(static_cast<int>(code)) +
         "): " + cudaGetErrorString(code);
}

}  // namespace

EventTimer::EventTimer() {
  token_ = AnnotationRegistry::instance().add_listener(
      [this](bool entering, const std::string& name) { on_boundary(entering, name); });
}

EventTimer::~EventTimer() {
  abort();
  const std::lock_guard<std::mutex> lock(mu_);
  for (const auto& region : regions_) give_back(region);
  regions_.clear();
  for (auto& [device, events] : free_) {
    for (CUevent_st* e : events) (void)cudaEventDestroy(e);
  }
}

CUevent_st* EventTimer::take_event(int device) {
  auto& events = free_[device];
  if (!events.empty()) {
    CUevent_st* e = events.back();
    events.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  const cudaError_t st = cudaEventCreate(&e);
  if (st != cudaSuccess) throw ToolError(cuda_failure("cudaEventCreate", st));
  return e;
}

void EventTimer::give_back(const Region& region) {
  if (region.start) free_[region.device].push_back(region.start);
  if (region.end) free_[region.device].push_back(region.end);
}

void EventTimer::on_boundary(bool entering, const std::string& name) noexcept {
  try {
    auto& registry = AnnotationRegistry::instance();
    const auto snap = registry.snapshot();
    const std::lock_guard<std::mutex> lock(mu_);
    if (!error_.empty()) return;
    if (entering) {
      if (!snap.in_run || snap.run.warmup) return;
      Region r;
      if (const cudaError_t st = cudaGetDevice(&r.device); st != cudaSuccess) {
        error_ = cuda_failure("cudaGetDevice", st);
        return;
      }
      r.start = take_event(r.device);
      r.end = take_event(r.device);
      r.annotation = name;
      r.run = snap.run;
      r.sequence = snap.sequence;
      regions_.push_back(r);
      if (const cudaError_t st = cudaEventRecord(r.start, cudaStreamLegacy); st != cudaSuccess) {
        error_ = cuda_failure("cudaEventRecord", st);
      }
      return;
    }
    // The region closing is the last one opened that is still open (regions do not nest).
    for (auto it = regions_.rbegin(); it != regions_.rend(); ++it) {
      if (it->closed || it->annotation != name) continue;
      it->closed = true;
      if (const cudaError_t st = cudaEventRecord(it->end, cudaStreamLegacy); st != cudaSuccess) {
        error_ = cuda_failure("cudaEventRecord", st);
      }
      return;
    }
  } catch (const std::exception& e) {
    const std::lock_guard<std::mutex> lock(mu_);
    if (error_.empty()) error_ = e.what();
  } catch (...) {
    // Never throw through the registry (a region closes in a destructor).
  }
}

std::vector<KernelRecord> EventTimer::flush() {
  const std::lock_guard<std::mutex> lock(mu_);
  if (!error_.empty()) throw ToolError(error_);
  std::vector<KernelRecord> out;
  std::vector<Region> open;
  cudaError_t failed = cudaSuccess;
  for (const auto& r : regions_) {
    if (!r.closed) {
      open.push_back(r);
      continue;
    }
    float ms = 0;
    if (failed == cudaSuccess) failed = cudaEventElapsedTime(&ms, r.start, r.end);
    give_back(r);
    KernelRecord& k = out.emplace_back();
    k.annotation = r.annotation;
    k.kernel = "events";
    k.mangled = "events";
    k.run = r.run;
    k.device = r.device;
    k.sequence = r.sequence;
    k.metrics.push_back({kTimeMetric, static_cast<double>(ms) * 1e6, std::string("ns")});
  }
  regions_ = std::move(open);
  if (failed != cudaSuccess) throw ToolError(cuda_failure("cudaEventElapsedTime", failed));
  return out;
}

std::vector<KernelRecord> EventTimer::end() {
  std::vector<KernelRecord> out = flush();
  abort();
  return out;
}

void EventTimer::abort() noexcept {
  if (token_ == 0) return;
  AnnotationRegistry::instance().remove_listener(token_);
  token_ = 0;
}

}  // namespace kscope::cupti
