#include "collect/cupti/collection_plan.hpp"

namespace kscope::cupti {

CollectionPlan plan_collection(const std::string& replay_mode, const std::string& metric_replay,
                               std::size_t counter_passes) {
  CollectionPlan p;
  p.counter_passes = counter_passes == 0 ? 1 : counter_passes;
  const int passes = static_cast<int>(p.counter_passes);
  if (replay_mode == "range") {
    p.user_range = true;
    p.scope = SessionScope::kRun;
    p.passes_per_run = passes;
  } else if (p.counter_passes > 1 && metric_replay == "application") {
    p.scope = SessionScope::kRun;
    p.passes_per_run = passes;
  } else {
    p.kernel_replay = p.counter_passes > 1;
  }
  return p;
}

std::string CollectionPlan::describe() const {
  const std::string n = std::to_string(counter_passes);
  const std::string passes_text = n + (counter_passes == 1 ? " pass" : " passes");
  if (user_range) {
    return "range replay: CUPTI user range + user replay, one range per annotation; the metric set "
           "needs " + passes_text + ", so every measured run is executed " + n +
           " time(s); kernels inside a range run asynchronously";
  }
  if (scope == SessionScope::kRun) {
    return "application replay: CUPTI auto range + user replay over whole runs; the metric set "
           "needs " + passes_text + ", so every measured run is executed " + n +
           " time(s) without saving or restoring memory; every kernel of a run is profiled, "
           "serialised and synchronised";
  }
  if (kernel_replay) {
    return "kernel replay: CUPTI auto range + kernel replay per annotation; each annotated kernel "
           "is serialised and replayed " + n + " times with device memory saved and restored "
           "between passes";
  }
  return "single pass: CUPTI auto range + user replay per annotation, no replay; each annotated "
         "kernel is serialised and synchronised while its counters are collected";
}

}  // namespace kscope::cupti
