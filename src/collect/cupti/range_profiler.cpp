#include "collect/cupti/range_profiler.hpp"

#include <cupti.h>
#include <cupti_range_profiler.h>

#include <chrono>
#include <cstdio>

#include "collect/cupti/cupti_check.hpp"
#include "collect/cupti/cupti_params.hpp"
#include "collect/cupti/profiler_device.hpp"
#include "core/host_clock.hpp"

namespace kscope::cupti {
namespace {

using Clock = std::chrono::steady_clock;

CUpti_RangeProfiler_Object* object(void* p) { return static_cast<CUpti_RangeProfiler_Object*>(p); }

// Times one CUPTI call: `TIMED(profiler, cuptiX(&p))` records it under "cuptiX".
#define KSCOPE_RP_TIMED(call_name, expr)               \
  do {                                                 \
    const auto kscope_t0_ = Clock::now();              \
    const CUptiResult kscope_st_ = (expr);             \
    finish(call_name, kscope_st_, ms_since(kscope_t0_)); \
  } while (0)

}  // namespace

void RangeProfiler::finish(const char* call, int result, double milliseconds) {
  auto& s = steps_[call];
  ++s.calls;
  s.milliseconds += milliseconds;
  const auto st = static_cast<CUptiResult>(result);
  if (trace_ && (tracing_ || st != CUPTI_SUCCESS)) {
    const char* text = nullptr;
    if (cuptiGetResultString(st, &text) != CUPTI_SUCCESS || !text) text = "?";
    char line[256];
    std::snprintf(line, sizeof line, "cupti step: %s -> %d %s, %.3f ms", call, result, text,
                  milliseconds);
    trace_(line);
  }
  if (st != CUPTI_SUCCESS) throw_cupti_error(st, call);
}

RangeProfiler::RangeProfiler(void* context, Trace trace)
    : context_(context), trace_(std::move(trace)) {
  tracing_ = true;  // Enable is always worth seeing in a DEBUG run
  enable();
}

void RangeProfiler::enable() {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);  // fresh: its output must be null
  p.ctx = static_cast<CUcontext>(context_);
  KSCOPE_RP_TIMED("cuptiRangeProfilerEnable", cuptiRangeProfilerEnable(&p));
  object_ = p.pRangeProfilerObject;
  configured_ranges_ = 0;
  capacity_ = 0;
}

void RangeProfiler::disable() {
  if (!object_) return;
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
  p.pRangeProfilerObject = object(object_);
  object_ = nullptr;
  const CurrentContext current(context_);  // a kept object is disabled on the keeper's thread
  KSCOPE_RP_TIMED("cuptiRangeProfilerDisable", cuptiRangeProfilerDisable(&p));
}

void RangeProfiler::reenable() {
  tracing_ = true;
  disable();
  enable();
}

RangeProfiler::~RangeProfiler() {
  try {
    disable();
  } catch (...) {
    // Nothing left to do with an object CUPTI would not disable.
  }
}

std::size_t RangeProfiler::counter_data_size(const std::vector<const char*>& metrics,
                                             std::size_t max_ranges) {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  p.pRangeProfilerObject = object(object_);
  p.pMetricNames = const_cast<const char**>(metrics.data());
  p.numMetrics = metrics.size();
  p.maxNumOfRanges = max_ranges;
  p.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);  // must be >= maxNumOfRanges
  KSCOPE_RP_TIMED("cuptiRangeProfilerGetCounterDataSize", cuptiRangeProfilerGetCounterDataSize(&p));
  return p.counterDataSize;
}

void RangeProfiler::initialize_image(std::vector<std::uint8_t>& image) {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  p.pRangeProfilerObject = object(object_);
  p.counterDataSize = image.size();
  p.pCounterData = image.data();
  KSCOPE_RP_TIMED("cuptiRangeProfilerCounterDataImageInitialize",
                  cuptiRangeProfilerCounterDataImageInitialize(&p));
}

void RangeProfiler::set_config(const std::vector<std::uint8_t>& config,
                               std::vector<std::uint8_t>& image, const Mode& mode) {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  p.pRangeProfilerObject = object(object_);
  p.configSize = config.size();
  p.pConfig = config.data();
  p.counterDataImageSize = image.size();
  p.pCounterDataImage = image.data();
  p.range = mode.user_range ? CUPTI_UserRange : CUPTI_AutoRange;
  p.replayMode = mode.kernel_replay ? CUPTI_KernelReplay : CUPTI_UserReplay;
  p.maxRangesPerPass = mode.max_ranges;
  p.numNestingLevels = 1;
  p.minNestingLevel = 1;
  p.passIndex = 0;
  p.targetNestingLevel = 1;
  KSCOPE_RP_TIMED("cuptiRangeProfilerSetConfig", cuptiRangeProfilerSetConfig(&p));
  configured_ranges_ = mode.max_ranges;
}

void RangeProfiler::start() {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
  p.pRangeProfilerObject = object(object_);
  KSCOPE_RP_TIMED("cuptiRangeProfilerStart", cuptiRangeProfilerStart(&p));
  if (capacity_ == 0) capacity_ = configured_ranges_;
}

RangeProfiler::StopResult RangeProfiler::stop() {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
  p.pRangeProfilerObject = object(object_);
  KSCOPE_RP_TIMED("cuptiRangeProfilerStop", cuptiRangeProfilerStop(&p));
  if (trace_ && tracing_) {
    trace_("cupti step: stop reports passIndex=" + std::to_string(p.passIndex) +
           " targetNestingLevel=" + std::to_string(p.targetNestingLevel) +
           " isAllPassSubmitted=" + std::to_string(static_cast<int>(p.isAllPassSubmitted)));
  }
  return {p.passIndex, p.targetNestingLevel, p.isAllPassSubmitted != 0};
}

void RangeProfiler::push_range(const std::string& name) {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
  p.pRangeProfilerObject = object(object_);
  p.pRangeName = name.c_str();
  KSCOPE_RP_TIMED("cuptiRangeProfilerPushRange", cuptiRangeProfilerPushRange(&p));
}

void RangeProfiler::pop_range() {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
  p.pRangeProfilerObject = object(object_);
  KSCOPE_RP_TIMED("cuptiRangeProfilerPopRange", cuptiRangeProfilerPopRange(&p));
}

std::size_t RangeProfiler::decode() {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  p.pRangeProfilerObject = object(object_);
  KSCOPE_RP_TIMED("cuptiRangeProfilerDecodeData", cuptiRangeProfilerDecodeData(&p));
  if (trace_ && tracing_) {
    trace_("cupti step: decode reports numOfRangeDropped=" + std::to_string(p.numOfRangeDropped));
  }
  return p.numOfRangeDropped;
}

std::size_t RangeProfiler::num_ranges(const std::vector<std::uint8_t>& image) {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  p.pCounterDataImage = image.data();
  p.counterDataImageSize = image.size();
  KSCOPE_RP_TIMED("cuptiRangeProfilerGetCounterDataInfo", cuptiRangeProfilerGetCounterDataInfo(&p));
  if (trace_ && tracing_) {
    trace_("cupti step: counter data holds numTotalRanges=" + std::to_string(p.numTotalRanges));
  }
  return p.numTotalRanges;
}

std::string RangeProfiler::range_name(const std::vector<std::uint8_t>& image, std::size_t index) {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
  p.pCounterDataImage = image.data();
  p.counterDataImageSize = image.size();
  p.rangeIndex = index;
  p.rangeDelimiter = "/";
  KSCOPE_RP_TIMED("cuptiRangeProfilerCounterDataGetRangeInfo",
                  cuptiRangeProfilerCounterDataGetRangeInfo(&p));
  return p.rangeName ? std::string(p.rangeName) : std::string();
}

}  // namespace kscope::cupti
