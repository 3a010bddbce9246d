#pragma once
// One-pass metric sets (replay_mode "kernel", the default batching): one CUPTI session in
// auto-range mode spanning many measured runs, stopped only to decode a batch: when the image
// could not hold another run, before a warm-up run, when a Session flush finds the batch a few
// seconds old, and at the end. Every kernel launched meanwhile is profiled (also between runs and
// outside annotations, e.g. the cache flushes); the k-th launch the callbacks see is the k-th
// auto range, and only launches inside the annotations of measured runs are attributed.

#include "collect/cupti/session_strategy.hpp"

namespace kscope::cupti {

class SpanSessions : public SessionStrategy {
 public:
  using SessionStrategy::SessionStrategy;

  void before_run(const RunId& run, int pass) override;
  void after_run(const RunId& run, int pass) override;
  /// Decodes the batch when it is a few seconds old (so the journal keeps up) or when a run did
  /// not finish (the Session's error path: the finished runs' records are kept).
  void flush() override;
  void finish(bool failed) override;

 private:
  [[nodiscard]] std::size_t ranges_per_run() const;
  // Stops and decodes the span; `drop_unfinished_run`: the current run's launches are not
  // attributed.
  void close_span(bool drop_unfinished_run);
};

}  // namespace kscope::cupti
