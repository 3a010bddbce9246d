#include "collect/cupti/profiler_host.hpp"

#include <cupti.h>
#include <cupti_profiler_host.h>

#include <algorithm>
#include <cctype>

#include "collect/cupti/cupti_check.hpp"
#include "collect/cupti/cupti_params.hpp"
#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {

CUpti_Profiler_Host_Object* object(void* p) { return static_cast<CUpti_Profiler_Host_Object*>(p); }

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string text(const char* s) { return s ? std::string(s) : std::string(); }

}  // namespace

std::vector<std::string> ProfilerHost::supported_chips() {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostGetSupportedChips(&p));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < p.numChips; ++i) out.push_back(text(p.ppChipNames[i]));
  return out;
}

ProfilerHost::ProfilerHost(const std::string& chip, const std::vector<std::uint8_t>& availability)
    : availability_(availability) {
  // CUPTI spells chips in capitals ("GH100"); ncu accepts "gh100" too, so do we.
  const auto chips = supported_chips();
  auto it = std::find(chips.begin(), chips.end(), upper(chip));
  if (it == chips.end()) {
    throw InvalidArgument("Unknown chip '" + chip + "'. This CUPTI (CUDA 13.0) knows: " +
                          joined(chips) + ".");
  }
  chip_ = *it;
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip_.c_str();
  p.pCounterAvailabilityImage = availability_.empty() ? nullptr : availability_.data();
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostInitialize(&p));
  host_ = p.pHostObject;
}

ProfilerHost::~ProfilerHost() {
  if (!host_) return;
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  p.pHostObject = object(host_);
  (void)cuptiProfilerHostDeinitialize(&p);
}

std::vector<std::string> ProfilerHost::base_metrics(MetricKind kind) const {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
  p.pHostObject = object(host_);
  p.metricType = static_cast<CUpti_MetricType>(kind);
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostGetBaseMetrics(&p));
  std::vector<std::string> out;
  out.reserve(p.numMetrics);
  for (std::size_t i = 0; i < p.numMetrics; ++i) out.push_back(text(p.ppMetricNames[i]));
  return out;
}

std::vector<std::string> ProfilerHost::submetrics(const std::string& base, MetricKind kind) const {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params);
  p.pHostObject = object(host_);
  p.metricType = static_cast<CUpti_MetricType>(kind);
  p.pMetricName = base.c_str();
  if (cuptiProfilerHostGetSubMetrics(&p) != CUPTI_SUCCESS) return {};
  std::vector<std::string> out;
  out.reserve(p.numOfSubmetrics);
  for (std::size_t i = 0; i < p.numOfSubmetrics; ++i) out.push_back(text(p.ppSubMetrics[i]));
  return out;
}

bool ProfilerHost::properties(const std::string& name, MetricProperties* out) const {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
  p.pHostObject = object(host_);
  p.pMetricName = name.c_str();
  const CUptiResult st = cuptiProfilerHostGetMetricProperties(&p);
  if (st == CUPTI_ERROR_INVALID_METRIC_NAME) return false;
  if (st != CUPTI_SUCCESS) throw_cupti_error(st, "cuptiProfilerHostGetMetricProperties");
  out->kind = static_cast<MetricKind>(p.metricType);
  out->description = text(p.pDescription);
  out->hw_unit = text(p.pHwUnit);
  out->dim_unit = text(p.pDimUnit);
  return true;
}

std::vector<std::uint8_t> ProfilerHost::config_image(const std::vector<std::string>& metrics) {
  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());
  auto add = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = object(host_);
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  const CUptiResult st = cuptiProfilerHostConfigAddMetrics(&add);
  if (st == CUPTI_ERROR_NOT_SUPPORTED) {
    throw InvalidArgument(
        "The metrics [" + joined(metrics) + "] cannot be collected together on " + chip_ +
        ": CUPTI 13.0 cannot mix device-level metrics (NVLink nvl*, C2C ctc*, PCIe pcie*) with "
        "kernel-level ones. Collect them in separate sessions, or use tool 'ncu'.");
  }
  if (st == CUPTI_ERROR_INVALID_PARAMETER || st == CUPTI_ERROR_INVALID_METRIC_NAME) {
    throw InvalidArgument("CUPTI rejected the metric set [" + joined(metrics) + "] on " + chip_ +
                          " (" + error_message(st, "cuptiProfilerHostConfigAddMetrics") +
                          "). Check each name with `kscope check-metrics --chip " + chip_ +
                          " NAME`.");
  }
  if (st != CUPTI_SUCCESS) throw_cupti_error(st, "cuptiProfilerHostConfigAddMetrics");
  auto size = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = object(host_);
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<std::uint8_t> image(size.configImageSize);
  auto get = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  get.pHostObject = object(host_);
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&get));
  return image;
}

std::size_t ProfilerHost::num_passes(const std::vector<std::uint8_t>& config_image) {
  std::vector<std::uint8_t> copy = config_image;  // the API takes a non-const pointer
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  p.configImageSize = copy.size();
  p.pConfigImage = copy.data();
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&p));
  return p.numOfPasses;
}

void ProfilerHost::evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                            const std::vector<const char*>& metrics, double* values) const {
  auto p = KSCOPE_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  p.pHostObject = object(host_);
  p.pCounterDataImage = counter_data.data();
  p.counterDataImageSize = counter_data.size();
  p.rangeIndex = range;
  p.ppMetricNames = const_cast<const char**>(metrics.data());
  p.numMetrics = metrics.size();
  p.pMetricValues = values;
  KSCOPE_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&p));
}

}  // namespace kscope::cupti
