#include "collect/cupti/timing_observer.hpp"

#include "core/annotation_registry.hpp"

namespace kscope::cupti {

void TimingObserver::on_launch(const LaunchEvent& event) noexcept {
  // kscope's own flush between two kernels of a region is no kernel of the region.
  if (!event.entering || event.internal) return;
  try {
    auto& registry = AnnotationRegistry::instance();
    const auto snap = registry.snapshot();
    if (snap.annotation < 0 || !snap.in_run || snap.run.warmup) return;
    LaunchInfo info;
    info.annotation = registry.name_of(snap.annotation);
    info.run = snap.run;
    info.sequence = snap.sequence;
    joiner_->add_launch(event.correlation_id, std::move(info));
  } catch (...) {
    // Out of memory inside a driver callback: the kernel goes unattributed and extraction
    // reports the missing kernel; never throw through CUPTI.
  }
}

}  // namespace kscope::cupti
