#pragma once
// A CUPTI session per annotation, from its entry to its exit, in auto-range mode: only annotated
// kernels are profiled. Used for CUPTI's kernel replay of multi-pass sets (metric_replay
// "kernel": Start and Stop cost microseconds there, and a span would replay every kernel outside
// annotations too) and for one-pass sets with KSCOPE_CUPTI_BATCH=annotation|run. Decoded at each
// annotation's exit, or once per run (decode_per_run).

#include "collect/cupti/session_strategy.hpp"

namespace kscope::cupti {

class AnnotationSessions : public SessionStrategy {
 public:
  using SessionStrategy::SessionStrategy;

  void before_run(const RunId& run, int pass) override;
  void after_run(const RunId& run, int pass) override;
  void on_annotation(bool entering, const std::string& name) override;

 protected:
  /// Its ranges are in the image: the launches stay so that the batch still maps. The registry
  /// reports the annotation's run as failed, so its values become NaN.
  void keep_stopped(std::vector<ProfiledLaunch> launches) override;

 private:
  void start(const std::string& name);
  void finish_session();
};

}  // namespace kscope::cupti
