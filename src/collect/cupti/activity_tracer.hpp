#pragma once
// The CUPTI Activity API side of the cupti tool: kernel records (GPU start/end) through
// CUPTI's buffer callbacks. One per process, because CUPTI's buffer callbacks are global. Kernel
// records stay enabled from the first timing session to release() (enabling them again costs the
// next launch ~0.6 ms, disabling ~1 ms on the H200); between sessions CUPTI's buffers are
// recycled undecoded.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "collect/cupti/launch_joiner.hpp"

namespace kscope::cupti {

class ActivityTracer {
 public:
  static ActivityTracer& instance();

  /// Registers the buffer callbacks (again: another client may have replaced them) and enables
  /// CONCURRENT_KERNEL records unless they are on (disabling a kept range profiler first: the
  /// two are never on together); the records are not decoded before attach().
  void enable();
  /// A timing session starts: enable(), and drops what earlier sessions or launches between
  /// sessions left.
  void attach();
  /// The session ended (after its final flush): records are no longer decoded; they stay
  /// enabled. Does not throw.
  void detach() noexcept;
  /// Disables kernel records (for the range profiler, another CUPTI client, exit). Does not throw.
  void release() noexcept;
  /// Makes CUPTI hand over its buffers (the device must be synchronised first) and returns the
  /// kernels decoded since the last call. `forced`: every buffer; otherwise those whose records
  /// are all complete, full or not (cuptiActivityFlushAll's flag 0). Throws ToolError when
  /// records were dropped.
  [[nodiscard]] std::vector<KernelActivity> flush(bool forced = true);

  /// What the flushes of the session so far cost the host (since attach()), for DEBUG.
  struct FlushCost {
    std::size_t flushes = 0;
    std::chrono::steady_clock::duration flush{};   ///< in cuptiActivityFlushAll, decoding included
    std::chrono::steady_clock::duration decode{};  ///< decoding buffers (any thread)
    std::size_t records = 0;                       ///< kernel records decoded
  };
  [[nodiscard]] FlushCost cost();

 private:
  ActivityTracer() = default;
  static void on_request(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
  static void on_complete(void* context, std::uint32_t stream, std::uint8_t* buffer,
                          std::size_t size, std::size_t valid);
  void decode(std::uint8_t* buffer, std::size_t valid);
  std::uint8_t* take_buffer();
  void give_back(std::uint8_t* buffer);

  std::mutex mu_;
  bool enabled_ = false;   // CONCURRENT_KERNEL records are on
  bool attached_ = false;  // a session decodes them (guarded by mu_)
  std::atomic<std::int64_t> host_offset_ns_{0};  // host steady clock minus CUPTI's clock (enable())
  // CUPTI's clock at attach(): kernels that started before it are no session's (launched
  // between sessions, still in CUPTI's buffers), and are skipped undecoded.
  std::atomic<std::uint64_t> attached_at_{0};
  std::vector<KernelActivity> pending_;
  std::vector<std::uint8_t*> free_buffers_;
  std::size_t dropped_ = 0;
  FlushCost cost_;  // guarded by mu_
};

}  // namespace kscope::cupti
