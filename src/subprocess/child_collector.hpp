#pragma once
// The passive collector of a re-executed child. The external tool (ncu, compute-sanitizer)
// measures from outside, and it is a CUPTI client itself, so the child must not start
// kscope's in-process CUPTI (only one client per process). This collector measures nothing; it
// records which annotation each run entered, warm-up runs included, so the parent can attribute
// the tool's results by launch order when the tool's report does not carry kscope's NVTX payload.

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/collector.hpp"
#include "subprocess/child_report.hpp"

namespace kscope::subprocess {

class ChildCollector : public Collector {
 public:
  ChildCollector() = default;
  ~ChildCollector() override;
  ChildCollector(const ChildCollector&) = delete;             // non-copyable
  ChildCollector& operator=(const ChildCollector&) = delete;  // non-copyable

  [[nodiscard]] std::string name() const override { return "child"; }
  void begin(const SessionInfo& info) override;
  void before_run(const RunId& run, int pass) override;
  void after_run(const RunId& run, int pass) override;
  [[nodiscard]] std::vector<KernelRecord> end() override;
  void abort() noexcept override;

  /// Every annotation entered during a run so far, in order.
  [[nodiscard]] std::vector<AnnotationEntry> trace() const;

  /// Called at every annotation boundary during a run (entry or exit of an annotation) with its
  /// number, counted from 1 over the session, on the thread that crossed it and with no lock
  /// held. The sanitizer tool stops a child there (subprocess/child_scope.hpp).
  using BoundaryHook = std::function<void(std::size_t boundary)>;
  void set_boundary_hook(BoundaryHook hook);

 private:
  void on_annotation(bool entering, const std::string& name);
  void detach() noexcept;

  mutable std::mutex mu_;  // annotations may be opened from any thread
  bool in_run_ = false;
  RunId run_;
  std::vector<AnnotationEntry> trace_;
  std::size_t boundaries_ = 0;
  BoundaryHook boundary_hook_;
  bool attached_ = false;
  std::size_t listener_token_ = 0;  // annotation registry listener
};

}  // namespace kscope::subprocess
