#include "subprocess/child_collector.hpp"

#include "core/annotation_registry.hpp"

namespace kscope::subprocess {

ChildCollector::~ChildCollector() { detach(); }

void ChildCollector::begin(const SessionInfo& /*info*/) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    trace_.clear();
    boundaries_ = 0;
    in_run_ = false;
  }
  listener_token_ = AnnotationRegistry::instance().add_listener(
      [this](bool entering, const std::string& name) { on_annotation(entering, name); });
  attached_ = true;
}

void ChildCollector::before_run(const RunId& run, int /*pass*/) {
  std::lock_guard<std::mutex> lock(mu_);
  in_run_ = true;
  run_ = run;
}

void ChildCollector::after_run(const RunId& /*run*/, int /*pass*/) {
  std::lock_guard<std::mutex> lock(mu_);
  in_run_ = false;
}

void ChildCollector::on_annotation(bool entering, const std::string& name) {
  BoundaryHook hook;
  std::size_t boundary = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!in_run_) return;
    if (entering) trace_.push_back(AnnotationEntry{name, run_});
    boundary = ++boundaries_;
    hook = boundary_hook_;
  }
  if (hook) hook(boundary);
}

void ChildCollector::set_boundary_hook(BoundaryHook hook) {
  std::lock_guard<std::mutex> lock(mu_);
  boundary_hook_ = std::move(hook);
}

std::vector<KernelRecord> ChildCollector::end() {
  detach();
  return {};
}

void ChildCollector::abort() noexcept { detach(); }

void ChildCollector::detach() noexcept {
  if (!attached_) return;
  attached_ = false;
  AnnotationRegistry::instance().remove_listener(listener_token_);
}

std::vector<AnnotationEntry> ChildCollector::trace() const {
  std::lock_guard<std::mutex> lock(mu_);
  return trace_;
}

}  // namespace kscope::subprocess
