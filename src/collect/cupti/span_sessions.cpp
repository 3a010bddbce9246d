#include "collect/cupti/span_sessions.hpp"

#include <algorithm>

#include "kscope/errors.hpp"

namespace kscope::cupti {
namespace {
// A spanning session is stopped and decoded at a Session flush once its batch is this old, so
// that records reach the journal; each stop and restart costs ~13 ms.
constexpr std::uint64_t kSpanDecodeIntervalNs = 2'000'000'000;
constexpr const char* kWhat = "a batch of measured runs";
}  // namespace

std::size_t SpanSessions::ranges_per_run() const {
  // A cycle is a measured run plus what was launched since the previous run ended; before the
  // first profiled cycle only the runs themselves are known, the warm-up runs until a measured
  // run was seen (they may launch far more: autotuning).
  const auto s = t_.launches.sizes();
  const std::size_t run = s.measured_launches > 0 ? s.measured_launches : s.run_launches;
  return 2 * std::max(s.cycle_launches, run + 1);
}

void SpanSessions::before_run(const RunId& run, int pass) {
  (void)pass;
  const std::size_t want = ranges_per_run();
  const bool open = t_.launches.profiling();
  const std::size_t used = t_.launches.session_size();
  // Warm-up runs are never profiled: they are where autotuning floods, lazy initialisation and
  // CUDA graph capture happen, none of it attributed, all of it able to break the k-th launch =
  // k-th range rule. Closing the span before them costs one Start/Stop pair per config.
  if (open && !run.warmup && used + want <= t_.batch.capacity()) {
    t_.batch.extend_to(run);
    return;
  }
  if (open) {
    close_span(false);  // a warm-up run, or the image might not hold this run
  } else {
    t_.batch.discard(false);  // a batch whose Start failed
  }
  if (run.warmup) return;
  t_.batch.open(want, run);
  start_session(kWhat);
}

void SpanSessions::after_run(const RunId& run, int pass) {
  (void)run;
  (void)pass;
  try {
    t_.launches.rethrow();
    // Fail at the run that launched a graph rather than at the end of the batch.
    const auto launches = t_.launches.launches_if_graph();
    if (!launches.empty()) {
      check_no_graph_launch(launches, {t_.batch.first_run(), t_.device, kWhat, t_.batch.last_run()});
    }
  } catch (...) {
    stop_open_session();
    throw;
  }
}

void SpanSessions::close_span(bool drop_unfinished_run) {
  const RunId unfinished = t_.launches.run();
  std::vector<ProfiledLaunch> launches;
  if (!t_.launches.close_session(&launches)) return;
  const auto stop = t_.profiler.stop();
  t_.batch.add(std::move(launches), drop_unfinished_run ? &unfinished : nullptr);
  if (!stop.all_passes_submitted) {
    t_.batch.discard(false);
    throw ToolError(
        "The CUPTI range profiler expected more passes after a session of one-pass "
        "metrics (pass index " +
        std::to_string(stop.pass_index) +
        " after Stop). Report this with a DEBUG log (verbosity kDebug).");
  }
  t_.batch.decode(kWhat);
}

void SpanSessions::flush() {
  if (!t_.batch.is_open()) return;
  const bool unfinished = t_.launches.in_run();  // only on the Session's error path: the run threw
  if (unfinished || t_.batch.age_ns() >= kSpanDecodeIntervalNs) close_span(unfinished);
}

void SpanSessions::finish(bool failed) {
  if (!failed) close_span(false);
}

}  // namespace kscope::cupti
