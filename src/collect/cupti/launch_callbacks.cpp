#include "collect/cupti/launch_callbacks.hpp"

#include <cupti.h>

#include "collect/cupti/cupti_check.hpp"
#include "core/annotation_registry.hpp"

namespace kscope::cupti {
namespace {

constexpr CUpti_CallbackId kLaunchCallbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

void CUPTIAPI on_callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId /*id*/,
                          const void* data) {
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite != CUPTI_API_ENTER) return;
  auto& registry = AnnotationRegistry::instance();
  const auto snap = registry.snapshot();
  if (snap.annotation < 0 || !snap.in_run || snap.run.warmup) return;
  LaunchInfo info;
  info.annotation = registry.name_of(snap.annotation);
  info.run = snap.run;
  info.sequence = snap.sequence;
  static_cast<LaunchJoiner*>(userdata)->add_launch(cb->correlationId, std::move(info));
}

}  // namespace

LaunchCallbacks::~LaunchCallbacks() { unsubscribe(); }

void LaunchCallbacks::subscribe(LaunchJoiner* joiner) {
  joiner_ = joiner;
  CUpti_SubscriberHandle handle = nullptr;
  KSCOPE_CUPTI_CHECK(cuptiSubscribe(&handle, reinterpret_cast<CUpti_CallbackFunc>(&on_callback), joiner));
  subscriber_ = handle;
  try {
    for (CUpti_CallbackId id : kLaunchCallbacks) {
      KSCOPE_CUPTI_CHECK(cuptiEnableCallback(1, handle, CUPTI_CB_DOMAIN_DRIVER_API, id));
    }
  } catch (...) {
    unsubscribe();
    throw;
  }
}

void LaunchCallbacks::unsubscribe() noexcept {
  if (!subscriber_) return;
  auto handle = static_cast<CUpti_SubscriberHandle>(subscriber_);
  (void)cuptiEnableDomain(0, handle, CUPTI_CB_DOMAIN_DRIVER_API);
  (void)cuptiUnsubscribe(handle);
  subscriber_ = nullptr;
}

}  // namespace kscope::cupti
