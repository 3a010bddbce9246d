#include "collect/cupti/annotation_sessions.hpp"

#include <algorithm>

#include "kscope/errors.hpp"

namespace kscope::cupti {

void AnnotationSessions::before_run(const RunId& run, int pass) {
  (void)run;
  (void)pass;
}

void AnnotationSessions::on_annotation(bool entering, const std::string& name) {
  if (entering) {
    start(name);
  } else {
    finish_session();
  }
}

void AnnotationSessions::start(const std::string& name) {
  const auto sizes = t_.launches.sizes();
  const std::size_t want = std::max(kMinAnnotationRanges, 2 * sizes.annotation_launches);
  if (t_.batch.is_open() && t_.batch.size() + want > t_.batch.capacity()) {
    t_.batch.decode("the annotations before '" + name + "'");
  }
  const RunId run = t_.launches.run();
  if (!t_.batch.is_open()) {
    t_.batch.open(t_.plan.decode_per_run ? std::max({want, kMinRunRanges, 2 * sizes.run_launches})
                                         : want,
                  run);
  }
  t_.batch.extend_to(run);
  start_session("annotation '" + name + "'");
}

void AnnotationSessions::finish_session() {
  std::vector<ProfiledLaunch> launches;
  std::string what;
  if (!t_.launches.close_session(&launches, &what)) return;
  const auto stop = t_.profiler.stop();
  t_.batch.add(std::move(launches));
  if (!stop.all_passes_submitted) {
    t_.batch.discard(false);
    throw ToolError("The CUPTI range profiler expected more passes for " + what + " (pass index " +
                    std::to_string(stop.pass_index) + " after Stop) although " +
                    t_.plan.describe() + ". Report this with a DEBUG log (verbosity kDebug).");
  }
  if (!t_.plan.decode_per_run) t_.batch.decode(what);
}

void AnnotationSessions::keep_stopped(std::vector<ProfiledLaunch> launches) {
  t_.batch.add(std::move(launches));
}

void AnnotationSessions::after_run(const RunId& run, int pass) {
  (void)run;
  (void)pass;
  stop_open_session();  // an annotation left open: the registry reports its run as failed
  try {
    t_.launches.rethrow();
  } catch (...) {
    t_.batch.discard(false);
    throw;
  }
  t_.batch.decode("the annotations of the run");
}

}  // namespace kscope::cupti
