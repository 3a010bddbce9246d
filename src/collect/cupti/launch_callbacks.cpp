#include "collect/cupti/launch_callbacks.hpp"

#include <cuda.h>
#include <cupti.h>

#include "collect/cupti/cupti_check.hpp"

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

void CUPTIAPI on_callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                          const void* data) {
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  LaunchEvent e;
  e.correlation_id = cb->correlationId;
  e.graph = id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
            id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
  e.symbol = e.graph ? nullptr : cb->symbolName;
  e.entering = cb->callbackSite == CUPTI_API_ENTER;
  e.context = cb->context;
  if (!e.entering && cb->functionReturnValue) {
    e.succeeded = *static_cast<const CUresult*>(cb->functionReturnValue) == CUDA_SUCCESS;
  }
  static_cast<LaunchObserver*>(userdata)->on_launch(e);
}

}  // namespace

LaunchCallbacks::~LaunchCallbacks() { unsubscribe(); }

void LaunchCallbacks::subscribe(LaunchObserver* observer) {
  CUpti_SubscriberHandle handle = nullptr;
  KSCOPE_CUPTI_CHECK(
      cuptiSubscribe(&handle, reinterpret_cast<CUpti_CallbackFunc>(&on_callback), observer));
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
