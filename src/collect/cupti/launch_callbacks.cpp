#include "collect/cupti/launch_callbacks.hpp"

#include <cuda.h>
#include <cupti.h>

#include <atomic>
#include <mutex>

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

// The process's subscription; the observer of the session in progress (null between sessions).
std::mutex g_mu;
CUpti_SubscriberHandle g_subscriber = nullptr;
std::atomic<LaunchObserver*> g_observer{nullptr};
std::atomic<LaunchGate*> g_gate{nullptr};
// Set while this thread runs the gate: the launches it makes are kscope's own.
thread_local bool t_in_gate = false;

bool is_graph(CUpti_CallbackId id) {
  return id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

bool per_thread_stream(CUpti_CallbackId id) {
  return id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
         id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
         id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz ||
         id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

// The stream a launch call names, from its parameters (generated_cuda_meta.h); a _ptsz call's
// null stream is the calling thread's default stream.
CUstream launch_stream(CUpti_CallbackId id, const void* params) {
  CUstream stream = nullptr;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      stream = static_cast<const cuLaunchKernel_params*>(params)->hStream;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const CUlaunchConfig* config = static_cast<const cuLaunchKernelEx_params*>(params)->config;
      stream = config ? config->hStream : nullptr;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      stream = static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
      stream = static_cast<const cuGraphLaunch_params*>(params)->hStream;
      break;
    default: break;
  }
  if (!stream && per_thread_stream(id)) stream = CU_STREAM_PER_THREAD;
  return stream;
}

void CUPTIAPI on_callback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                          const void* data) {
  LaunchObserver* observer = g_observer.load(std::memory_order_acquire);
  LaunchGate* gate = g_gate.load(std::memory_order_acquire);
  if ((!observer && !gate) || domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  LaunchEvent e;
  e.correlation_id = cb->correlationId;
  e.graph = is_graph(id);
  e.symbol = e.graph ? nullptr : cb->symbolName;
  e.entering = cb->callbackSite == CUPTI_API_ENTER;
  e.context = cb->context;
  e.internal = t_in_gate;
  if (!e.entering && cb->functionReturnValue) {
    e.succeeded = *static_cast<const CUresult*>(cb->functionReturnValue) == CUDA_SUCCESS;
  }
  if (e.entering && gate && !e.internal) {
    // What the gate launches (the flush) calls back here again, on this thread: marked internal,
    // so it is neither attributed nor gated (no recursion).
    e.stream = launch_stream(id, cb->functionParams);
    t_in_gate = true;
    gate->before_launch(e);
    t_in_gate = false;
  }
  if (observer) observer->on_launch(e);
}

void unsubscribe_locked() noexcept {
  if (!g_subscriber) return;
  (void)cuptiEnableDomain(0, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  (void)cuptiUnsubscribe(g_subscriber);
  g_subscriber = nullptr;
}

// Subscribes the process to CUPTI's launch callbacks unless it is subscribed already.
void subscribe_process() {
  const std::lock_guard<std::mutex> lock(g_mu);
  if (!g_subscriber) {
    CUpti_SubscriberHandle handle = nullptr;
    KSCOPE_CUPTI_CHECK(
        cuptiSubscribe(&handle, reinterpret_cast<CUpti_CallbackFunc>(&on_callback), nullptr));
    g_subscriber = handle;
    try {
      for (CUpti_CallbackId id : kLaunchCallbacks) {
        KSCOPE_CUPTI_CHECK(cuptiEnableCallback(1, handle, CUPTI_CB_DOMAIN_DRIVER_API, id));
      }
    } catch (...) {
      unsubscribe_locked();
      throw;
    }
  }
}

}  // namespace

LaunchCallbacks::~LaunchCallbacks() { unsubscribe(); }

void LaunchCallbacks::subscribe(LaunchObserver* observer) {
  subscribe_process();
  g_observer.store(observer, std::memory_order_release);
  attached_ = true;
}

void LaunchCallbacks::unsubscribe() noexcept {
  if (!attached_) return;
  g_observer.store(nullptr, std::memory_order_release);
  attached_ = false;
}

void set_launch_gate(LaunchGate* gate) noexcept { g_gate.store(gate, std::memory_order_release); }

void release_launch_callbacks() noexcept {
  const std::lock_guard<std::mutex> lock(g_mu);
  g_observer.store(nullptr, std::memory_order_release);
  unsubscribe_locked();
}

}  // namespace kscope::cupti
