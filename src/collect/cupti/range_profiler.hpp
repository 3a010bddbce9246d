#pragma once
// The target side of the CUPTI Range Profiler (cupti_range_profiler.h) on one CUDA context,
// following the call sequence verified on an H200:
//   Enable -> GetCounterDataSize -> CounterDataImageInitialize -> SetConfig
//   -> { Start [Push/Pop] ... Stop } until all passes are submitted -> DecodeData
//   -> GetCounterDataInfo / CounterDataGetRangeInfo -> (host) EvaluateToGpuValues -> Disable.
// Every call is timed; with a trace sink, each call's result and duration is printed, so one
// DEBUG run on a GPU shows which step failed.
//
// Capacity (measured on the H200, CUDA 13.0, bench/RESULTS.md): the first Start after Enable
// sets the profiler up for the maxRangesPerPass of the SetConfig before it and costs ~150 ms
// plus ~0.75 ms per range (32 ranges: ~170-210 ms, 256: ~320-440 ms, 2048: ~2 s); later Starts cost
// ~7 ms whatever they ask for, but a later SetConfig asking for more ranges than that first one
// silently records at most twice as many (no dropped-range count either). So the capacity is
// fixed at the first Start (range_capacity()) and only a new object (reenable()) can grow it.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "collect/cupti/range_profiler_api.hpp"

namespace kscope::cupti {

class RangeProfiler : public RangeProfilerApi {
 public:
  /// cuptiRangeProfilerEnable on `context` (a CUcontext). One object per context and mode:
  /// switching between auto and user range needs a new object.
  RangeProfiler(void* context, Trace trace);
  ~RangeProfiler() override;  // cuptiRangeProfilerDisable, on any thread (the context is pushed)
  RangeProfiler(const RangeProfiler&) = delete;             // owns a CUPTI object
  RangeProfiler& operator=(const RangeProfiler&) = delete;  // owns a CUPTI object

  void start_session(Trace trace) override {
    trace_ = std::move(trace);
    tracing_ = true;  // a session's first batch is worth seeing in a DEBUG run
    steps_.clear();
  }
  void set_tracing(bool on) override { tracing_ = on; }
  [[nodiscard]] std::size_t range_capacity() const override { return capacity_; }
  void reenable() override;
  [[nodiscard]] std::size_t counter_data_size(const std::vector<const char*>& metrics,
                                              std::size_t max_ranges) override;
  void initialize_image(std::vector<std::uint8_t>& image) override;
  void hold_images(Images images) override { held_ = std::move(images); }
  [[nodiscard]] Images take_images() override { return std::exchange(held_, Images{}); }
  void set_config(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& image,
                  const Mode& mode) override;
  void start() override;
  [[nodiscard]] StopResult stop() override;
  void push_range(const std::string& name) override;
  void pop_range() override;
  [[nodiscard]] std::size_t decode() override;
  [[nodiscard]] std::size_t num_ranges(const std::vector<std::uint8_t>& image) override;
  [[nodiscard]] std::string range_name(const std::vector<std::uint8_t>& image,
                                       std::size_t index) override;
  [[nodiscard]] const std::map<std::string, StepTime>& step_times() const override { return steps_; }

 private:
  // Records the call's duration, traces it, and throws CuptiError when it failed.
  void finish(const char* call, int result, double milliseconds);

  void enable();
  void disable();  // throws CuptiError; leaves no object either way

  void* context_ = nullptr;  // CUcontext
  void* object_ = nullptr;   // CUpti_RangeProfiler_Object*
  std::size_t configured_ranges_ = 0;  // maxRangesPerPass of the last SetConfig
  std::size_t capacity_ = 0;           // fixed by the first Start
  Trace trace_;
  bool tracing_ = false;
  std::map<std::string, StepTime> steps_;
  Images held_;  // hold_images(): destroyed after the destructor's Disable
};

}  // namespace kscope::cupti
