// Annotations: the process-wide registry (core) plus an NVTX start/end range in the "kscope"
// domain, which is what ncu's --nvtx-include filter and nsys see.

#include "kscope/annotation.hpp"

#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <exception>

#include "core/annotation_registry.hpp"

namespace kscope {
namespace {

nvtxDomainHandle_t domain() {
  static nvtxDomainHandle_t d = nvtxDomainCreateA(kNvtxDomain);
  return d;
}

// Only one annotation is open at a time in the process, so one slot suffices.
std::atomic<nvtxRangeId_t> g_open_range{0};

}  // namespace

void begin_annotation(std::string_view name) {
  const std::uint64_t payload = AnnotationRegistry::instance().begin(name);
  const std::string text(name);
  nvtxEventAttributes_t attr{};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = text.c_str();
  if (payload != 0) {
    attr.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    attr.payload.ullValue = payload;
  }
  g_open_range.store(nvtxDomainRangeStartEx(domain(), &attr));
}

void end_annotation(bool failed) {
  auto& registry = AnnotationRegistry::instance();
  if (registry.current_name().empty()) return;
  registry.closing(failed);  // cuda_graph: a captured region is launched inside its range
  nvtxDomainRangeEnd(domain(), g_open_range.exchange(0));
  registry.end(failed);
}

std::string current_annotation() { return AnnotationRegistry::instance().current_name(); }

Annotation::Annotation(std::string_view name) : uncaught_at_entry_(std::uncaught_exceptions()) {
  begin_annotation(name);
}

Annotation::~Annotation() { end_annotation(std::uncaught_exceptions() > uncaught_at_entry_); }

void annotate(std::string_view name, const std::function<void()>& fn, bool ignore_failures) {
  begin_annotation(name);
  try {
    fn();
  } catch (...) {
    end_annotation(true);
    if (!ignore_failures) throw;
    return;
  }
  end_annotation(false);
}

}  // namespace kscope
