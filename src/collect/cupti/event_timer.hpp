#pragma once
// duration_source "events": the cupti tool's measurement path that times every annotated region
// of a measured run with a pair of CUDA events on the legacy default stream, recorded when the
// region opens (queued behind its cache flush, which the run environment then does not wait for)
// and when it closes, as Triton's do_bench times a call. The value is the region's wall time on
// the GPU from the end of the flush: its kernels, the gaps between them and whatever of the
// host's launch overhead the flush did not hide. CUPTI is not used; the events are made once and
// reused.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "collect/cupti/measurement_path.hpp"

struct CUevent_st;

namespace kscope::cupti {

class EventTimer : public MeasurementPath {
 public:
  /// Starts listening to the annotation registry's region boundaries.
  EventTimer();
  ~EventTimer() override;
  EventTimer(const EventTimer&) = delete;             // owns CUDA events and a listener
  EventTimer& operator=(const EventTimer&) = delete;  // owns CUDA events and a listener

  /// One record per region closed so far (kernel "events", gpu__time_duration.sum in ns). The
  /// Session calls it after synchronising the device, so every recorded pair is complete; an
  /// event that failed to record throws ToolError naming the CUDA error.
  [[nodiscard]] std::vector<KernelRecord> flush() override;
  [[nodiscard]] bool flush_is_complete() const override { return true; }
  [[nodiscard]] std::vector<KernelRecord> end() override;
  void abort() noexcept override;

 private:
  struct Region {
    CUevent_st* start = nullptr;
    CUevent_st* end = nullptr;
    int device = 0;
    std::string annotation;
    RunId run;
    std::uint64_t sequence = 0;
    bool closed = false;
  };
  void on_boundary(bool entering, const std::string& name) noexcept;
  CUevent_st* take_event(int device);  // requires mu_
  void give_back(const Region& region);  // requires mu_

  std::mutex mu_;
  std::vector<Region> regions_;                      // opened since the last flush
  std::map<int, std::vector<CUevent_st*>> free_;     // by device, for reuse
  std::string error_;                                // the first CUDA failure in a listener
  std::size_t token_ = 0;
};

}  // namespace kscope::cupti
