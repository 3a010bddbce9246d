#include "collect/cupti/launch_log.hpp"

#include <algorithm>
#include <utility>

#include "core/annotation_registry.hpp"

namespace kscope::cupti {

void LaunchLog::begin_run(const RunId& run) {
  std::lock_guard<std::mutex> lock(mu_);
  run_ = run;
  in_run_ = true;
  measured_ = !run.warmup;
  run_launches_ = 0;
  run_annotations_ = 0;
}

void LaunchLog::end_run() {
  std::lock_guard<std::mutex> lock(mu_);
  in_run_ = false;
  max_.run_launches = std::max(max_.run_launches, run_launches_);
  if (measured_) max_.measured_launches = std::max(max_.measured_launches, run_launches_);
  max_.run_annotations = std::max(max_.run_annotations, run_annotations_);
  max_.cycle_launches = std::max(max_.cycle_launches, cycle_launches_);
  cycle_launches_ = 0;
}

RunId LaunchLog::run() const {
  std::lock_guard<std::mutex> lock(mu_);
  return run_;
}

bool LaunchLog::in_run() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_run_;
}

bool LaunchLog::measured() const {
  std::lock_guard<std::mutex> lock(mu_);
  return measured_;
}

bool LaunchLog::note_annotation(bool entering) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_run_) return false;
  if (entering) {
    ++run_annotations_;
    annotation_launches_ = 0;
  } else {
    max_.annotation_launches = std::max(max_.annotation_launches, annotation_launches_);
  }
  return measured_ && !error_;
}

void LaunchLog::open_session(const std::string& what) {
  std::lock_guard<std::mutex> lock(mu_);
  launches_.clear();
  entry_symbols_.clear();
  what_ = what;
  graph_ = false;
  profiling_ = true;
}

bool LaunchLog::close_session(std::vector<ProfiledLaunch>* launches, std::string* what,
                              bool* range_open) {
  std::lock_guard<std::mutex> lock(mu_);
  const bool was = profiling_;
  profiling_ = false;
  if (range_open) *range_open = std::exchange(range_open_, false);
  if (launches) {
    launches->clear();
    launches->swap(launches_);
  }
  if (what) *what = what_;
  return was;
}

bool LaunchLog::profiling() const {
  std::lock_guard<std::mutex> lock(mu_);
  return profiling_;
}

std::size_t LaunchLog::session_size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return launches_.size();
}

std::string LaunchLog::session_what() const {
  std::lock_guard<std::mutex> lock(mu_);
  return what_;
}

std::vector<ProfiledLaunch> LaunchLog::launches_if_graph() const {
  std::lock_guard<std::mutex> lock(mu_);
  return graph_ ? launches_ : std::vector<ProfiledLaunch>{};
}

std::vector<ProfiledLaunch> LaunchLog::session_launches() const {
  std::lock_guard<std::mutex> lock(mu_);
  return launches_;
}

void LaunchLog::range_pushed(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  range_open_ = true;
  pushed_.push_back(name);
}

bool LaunchLog::take_open_range() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::exchange(range_open_, false);
}

void LaunchLog::clear_pushed() {
  std::lock_guard<std::mutex> lock(mu_);
  pushed_.clear();
}

std::vector<std::string> LaunchLog::pushed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pushed_;
}

std::vector<std::string> LaunchLog::pass_trace(bool user_range) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> trace;
  if (user_range) {
    for (const auto& name : pushed_) {
      const auto kernels = std::count_if(launches_.begin(), launches_.end(),
                                         [&](const ProfiledLaunch& l) { return l.annotation == name; });
      trace.push_back("annotation '" + name + "' with " + std::to_string(kernels) + " kernel launch(es)");
    }
  } else {
    for (const auto& l : launches_) {
      trace.push_back("kernel '" + l.mangled + "' " +
                      (l.annotation.empty() ? "outside annotations" : "in annotation '" + l.annotation + "'"));
    }
  }
  return trace;
}

LaunchLog::Sizes LaunchLog::sizes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return max_;
}

void LaunchLog::fail(std::exception_ptr error) noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  if (!error_) error_ = std::move(error);
}

bool LaunchLog::failed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_ != nullptr;
}

void LaunchLog::rethrow() {
  std::exception_ptr e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::swap(e, error_);
  }
  if (e) std::rethrow_exception(e);
}

void LaunchLog::on_launch(const LaunchEvent& event) noexcept {
  // The range profiler profiles one context: launches into another one have no range.
  if (event.context && context_ && event.context != context_) return;
  try {
    if (event.entering) {
      // The kernel's name is documented for the launch callbacks; keep the entry's copy in case
      // the exit does not carry it.
      std::lock_guard<std::mutex> lock(mu_);
      if (profiling_ && event.symbol) entry_symbols_[event.correlation_id] = event.symbol;
      return;
    }
    std::string symbol = event.symbol ? event.symbol : "";
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = entry_symbols_.find(event.correlation_id);
      if (it != entry_symbols_.end()) {
        if (symbol.empty()) symbol = std::move(it->second);
        entry_symbols_.erase(it);
      }
    }
    if (!event.succeeded) return;  // count launches that happened
    auto& registry = AnnotationRegistry::instance();
    const auto snap = registry.snapshot();
    const std::string annotation = snap.annotation >= 0 ? registry.name_of(snap.annotation) : "";
    std::lock_guard<std::mutex> lock(mu_);
    if (in_run_) {
      ++run_launches_;
      if (!annotation.empty()) ++annotation_launches_;
    }
    if (!profiling_) return;
    // A session spanning runs also sees the launches between runs and outside annotations:
    // profiled, so they take a range, but never attributed.
    ++cycle_launches_;
    ProfiledLaunch l;
    // kscope's own flush between two kernels of a region takes a range but is never the region's.
    if (in_run_ && measured_ && !event.internal) l.annotation = annotation;
    l.mangled = std::move(symbol);
    l.graph = event.graph;
    l.sequence = ++next_sequence_;
    l.run = run_;
    if (l.graph) graph_ = true;
    launches_.push_back(std::move(l));
  } catch (...) {
    // Never throw through CUPTI; a launch missing here shows up as a range count mismatch.
  }
}

}  // namespace kscope::cupti
