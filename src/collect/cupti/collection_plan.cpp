#include "collect/cupti/collection_plan.hpp"

#include "kscope/errors.hpp"

namespace kscope::cupti {

BatchOverride parse_batch_override(const char* value) {
  const std::string v = value ? value : "";
  if (v.empty()) return BatchOverride::kNone;
  if (v == "annotation") return BatchOverride::kAnnotation;
  if (v == "run") return BatchOverride::kRun;
  if (v == "span") return BatchOverride::kSpan;
  throw InvalidArgument("Invalid KSCOPE_CUPTI_BATCH '" + v +
                        "'. Expected 'span' (the default for one-pass metric sets), 'run' or "
                        "'annotation' (a CUPTI session per annotation: only annotated kernels "
                        "are profiled), or leave it unset.");
}

CollectionPlan plan_collection(const std::string& replay_mode, const std::string& metric_replay,
                               std::size_t counter_passes, BatchOverride batch) {
  CollectionPlan p;
  p.counter_passes = counter_passes == 0 ? 1 : counter_passes;
  const int passes = static_cast<int>(p.counter_passes);
  if (replay_mode == "range") {
    p.user_range = true;
    p.scope = SessionScope::kRun;
    p.passes_per_run = passes;
    p.restore_memory = passes > 1 && metric_replay != "application";
  } else if (p.counter_passes > 1 && metric_replay != "kernel") {
    p.scope = SessionScope::kRun;
    p.passes_per_run = passes;
    p.restore_memory = metric_replay != "application";
  } else if (p.counter_passes > 1) {
    p.kernel_replay = true;
    p.decode_per_run = batch == BatchOverride::kRun;
  } else if (batch == BatchOverride::kAnnotation || batch == BatchOverride::kRun) {
    p.decode_per_run = batch == BatchOverride::kRun;
  } else {
    p.scope = SessionScope::kSpan;
  }
  return p;
}

std::string CollectionPlan::describe() const {
  const std::string n = std::to_string(counter_passes);
  const std::string passes_text = n + (counter_passes == 1 ? " pass" : " passes");
  const std::string memory =
      restore_memory ? " with device memory saved before the first and restored before every later "
                       "execution (a CUPTI checkpoint), caches flushed at every region entry"
                     : (counter_passes > 1 ? " without saving or restoring memory" : "");
  if (user_range) {
    return "range replay: CUPTI user range + user replay, one range per annotation; the metric set "
           "needs " + passes_text + ", so every measured run is executed " + n + " time(s)" +
           memory + "; kernels inside a range run asynchronously";
  }
  if (scope == SessionScope::kRun) {
    return std::string(restore_memory ? "checkpoint replay" : "application replay") +
           ": CUPTI auto range + user replay over whole runs; the metric set needs " + passes_text +
           ", so every measured run is executed " + n + " time(s)" + memory +
           "; every kernel of a run is profiled, serialised and synchronised";
  }
  if (scope == SessionScope::kSpan) {
    return "single pass, no replay: CUPTI auto range + user replay in one session spanning many "
           "measured runs (stopped only to decode a full batch); every kernel launched meanwhile "
           "is serialised and profiled (those outside annotations, e.g. the cache flush, are "
           "dropped); KSCOPE_CUPTI_BATCH=annotation profiles only annotated kernels";
  }
  const std::string decode = decode_per_run ? "decoded once per run" : "decoded per annotation";
  if (kernel_replay) {
    return "kernel replay: CUPTI auto range + kernel replay, a session per annotation (" + decode +
           "); each annotated kernel is serialised and replayed " + n +
           " times by CUPTI with device memory saved and restored between passes; only the first "
           "pass runs after kscope's cache flush, later passes with the caches the previous pass "
           "left (durations and throughputs of memory-bound kernels read high)";
  }
  return "single pass, no replay: CUPTI auto range + user replay, a session per annotation (" +
         decode +
         "); each annotated kernel is serialised and synchronised while its counters "
         "are collected";
}

}  // namespace kscope::cupti
