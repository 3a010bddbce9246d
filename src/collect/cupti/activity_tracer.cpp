#include "collect/cupti/activity_tracer.hpp"

#include <cupti.h>

#include <chrono>
#include <cstdlib>
#include <iterator>

#include "collect/cupti/cupti_check.hpp"
#include "collect/cupti/kept_range_profiler.hpp"

namespace kscope::cupti {
namespace {
// Buffers of 64 KiB (~300 kernel records), far below CUPTI's 1-10 MB advice, handed over by
// CUPTI's thread as they fill (the flush period below): a sweep's records are decoded on that
// thread while it runs, and the forced flush of a journal write hands back little. On the H200,
// a 1000-run sweep's last flush took 0.32 ms instead of 0.73 with 1 MiB buffers, and CUPTI's
// set-up of the next buffer grows with its size (8 MiB made the next launch ~1 ms slower after
// each flush). KSCOPE_CUPTI_BUFFER_KIB overrides the size for experiments.
std::size_t buffer_bytes() {
  static const std::size_t bytes = [] {
    const char* kib = std::getenv("KSCOPE_CUPTI_BUFFER_KIB");
    const long v = kib ? std::atol(kib) : 0;
    return v > 0 ? static_cast<std::size_t>(v) << 10 : std::size_t{64} << 10;
  }();
  return bytes;
}
// While a session is attached, CUPTI's thread hands over full buffers every this many ms (0:
// CUPTI's own heuristics); between sessions it is 0, so that nothing wakes for kscope.
// KSCOPE_CUPTI_FLUSH_PERIOD_MS overrides it.
std::uint32_t flush_period_ms() {
  static const std::uint32_t ms = [] {
    const char* v = std::getenv("KSCOPE_CUPTI_FLUSH_PERIOD_MS");
    if (!v || !*v) return 2U;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    return *end == '\0' && n >= 0 ? static_cast<std::uint32_t>(n) : 2U;
  }();
  return ms;
}
constexpr std::size_t kAlignment = 8;
}  // namespace

ActivityTracer& ActivityTracer::instance() {
  static ActivityTracer tracer;
  return tracer;
}

std::uint8_t* ActivityTracer::take_buffer() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!free_buffers_.empty()) {
    std::uint8_t* b = free_buffers_.back();
    free_buffers_.pop_back();
    return b;
  }
  return static_cast<std::uint8_t*>(std::aligned_alloc(kAlignment, buffer_bytes()));
}

void ActivityTracer::give_back(std::uint8_t* buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  free_buffers_.push_back(buffer);
}

void CUPTIAPI ActivityTracer::on_request(std::uint8_t** buffer, std::size_t* size,
                                         std::size_t* max_records) {
  *buffer = instance().take_buffer();
  *size = *buffer ? buffer_bytes() : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI ActivityTracer::on_complete(void* context, std::uint32_t stream,
                                          std::uint8_t* buffer, std::size_t /*size*/,
                                          std::size_t valid) {
  auto& self = instance();
  if (buffer) {
    bool attached = false;
    {
      std::lock_guard<std::mutex> lock(self.mu_);
      attached = self.attached_;
    }
    if (attached) self.decode(buffer, valid);  // between sessions: recycled undecoded
    self.give_back(buffer);
  }
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(static_cast<CUcontext>(context), stream, &dropped) ==
          CUPTI_SUCCESS &&
      dropped > 0) {
    std::lock_guard<std::mutex> lock(self.mu_);
    self.dropped_ += dropped;
  }
}

void ActivityTracer::decode(std::uint8_t* buffer, std::size_t valid) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t attached_at = attached_at_.load();
  std::vector<KernelActivity> batch;
  batch.reserve(valid / sizeof(CUpti_ActivityKernel10));  // at most; most records are kernels
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        record->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
      continue;
    }
    // Records are packed: copy the fields out rather than binding references.
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    if (k->start < attached_at) continue;
    KernelActivity a;
    a.correlation_id = k->correlationId;
    a.name = k->name ? k->name : "";
    a.start = k->start;
    a.end = k->end;
    a.device = static_cast<int>(k->deviceId);
    a.stream = k->streamId;
    a.host_offset_ns = host_offset_ns_.load();
    a.launch.grid = {k->gridX, k->gridY, k->gridZ};
    a.launch.block = {k->blockX, k->blockY, k->blockZ};
    a.launch.cluster = {k->clusterX, k->clusterY, k->clusterZ};
    a.launch.registers_per_thread = k->registersPerThread;
    a.launch.static_shared_bytes = k->staticSharedMemory;
    a.launch.dynamic_shared_bytes = k->dynamicSharedMemory;
    a.launch.shared_config_bytes = k->sharedMemoryExecuted;
    a.launch.device = a.device;
    batch.push_back(std::move(a));
  }
  std::lock_guard<std::mutex> lock(mu_);
  cost_.decode += std::chrono::steady_clock::now() - t0;
  cost_.records += batch.size();
  if (pending_.empty()) {
    pending_.swap(batch);
  } else {
    pending_.insert(pending_.end(), std::make_move_iterator(batch.begin()),
                    std::make_move_iterator(batch.end()));
  }
}

void ActivityTracer::enable() {
  KSCOPE_CUPTI_CHECK(cuptiActivityRegisterCallbacks(
      reinterpret_cast<CUpti_BuffersCallbackRequestFunc>(&ActivityTracer::on_request),
      reinterpret_cast<CUpti_BuffersCallbackCompleteFunc>(&ActivityTracer::on_complete)));
  if (!enabled_) {
    release_range_profiler();  // kernel records and the range profiler are never on together
    KSCOPE_CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    enabled_ = true;
  }
}

void ActivityTracer::attach() {
  enable();
  std::size_t stale_drops = 0;  // dropped before this session: not its records
  (void)cuptiActivityGetNumDroppedRecords(nullptr, 0, &stale_drops);
  // CUPTI's clock against the host's steady clock, read back to back: kernel times then sit on
  // the timeline of the session's host phases (to within the two reads' distance, ~1 us).
  std::uint64_t cupti_now = 0;
  KSCOPE_CUPTI_CHECK(cuptiGetTimestamp(&cupti_now));
  const auto host_now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
  host_offset_ns_ = static_cast<std::int64_t>(host_now) - static_cast<std::int64_t>(cupti_now);
  attached_at_ = cupti_now;
  KSCOPE_CUPTI_CHECK(cuptiActivityFlushPeriod(flush_period_ms()));
  std::lock_guard<std::mutex> lock(mu_);
  pending_.clear();
  dropped_ = 0;
  cost_ = {};
  attached_ = true;
}

void ActivityTracer::detach() noexcept {
  (void)cuptiActivityFlushPeriod(0);
  std::lock_guard<std::mutex> lock(mu_);
  attached_ = false;
  pending_.clear();
}

void ActivityTracer::release() noexcept {
  detach();
  if (!enabled_) return;
  (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  (void)cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  enabled_ = false;
}

ActivityTracer::FlushCost ActivityTracer::cost() {
  std::lock_guard<std::mutex> lock(mu_);
  return cost_;
}

std::vector<KernelActivity> ActivityTracer::flush(bool forced) {
  const auto t0 = std::chrono::steady_clock::now();
  KSCOPE_CUPTI_CHECK(cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0));
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++cost_.flushes;
    cost_.flush += std::chrono::steady_clock::now() - t0;
  }
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) {
    std::lock_guard<std::mutex> lock(mu_);
    dropped_ += dropped;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (dropped_ > 0) {
    const std::size_t n = dropped_;
    dropped_ = 0;
    throw ToolError("The cupti tool dropped " + std::to_string(n) +
                    " activity records because CUPTI was not given buffer space to write them "
                    "into, so the profile is incomplete.");
  }
  std::vector<KernelActivity> out;
  out.swap(pending_);
  return out;
}

}  // namespace kscope::cupti
