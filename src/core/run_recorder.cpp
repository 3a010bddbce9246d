#include "core/run_recorder.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "core/annotation_runs.hpp"
#include "core/sort_if_needed.hpp"

namespace kscope {
namespace {
// Finished runs reach the journal at least once a second, and after every config that ends at
// least kConfigGap after the previous write. Every write forces CUPTI to hand over its
// buffers, which cost about 0.6 ms of host time on the H200 (the flush itself and a slower next
// launch): after every config of a sweep of short configs that more than doubled the sweep's
// wall time, so configs shorter than the gap share a write.
constexpr auto kInterval = std::chrono::seconds(1);
constexpr auto kConfigGap = std::chrono::milliseconds(100);

// How many runs at the front of `held` (in the order they ran) have their records among
// `records`: up to the last of them that a record names. A collector that decodes in batches
// hands over whole runs in the order they ran, so the runs before that one are complete too
// (they may have no kernel at all); the runs after it wait.
std::size_t complete_runs(const std::vector<RunLog>& held, const RecordSlice& records) {
  std::vector<RunId> named;
  named.reserve(records.size());
  for (const auto& k : records) named.push_back(k.run);
  std::sort(named.begin(), named.end());
  for (std::size_t i = held.size(); i > 0; --i) {
    if (std::binary_search(named.begin(), named.end(), held[i - 1].run)) return i;
  }
  return 0;
}
}  // namespace

RunRecorder::RunRecorder(RunSink* sink, Rules rules)
    : sink_(sink), rules_(std::move(rules)), last_write_(std::chrono::steady_clock::now()) {}

bool RunRecorder::due(bool config_end) const {
  if (config_end && rules_.every_config) return true;
  return std::chrono::steady_clock::now() - last_write_ >= (config_end ? kConfigGap : kInterval);
}

bool RunRecorder::has_unstaged() const {
  return sink_ && rules_.complete_flushes && staged_ < finished_.size();
}

void RunRecorder::stage() {
  if (!has_unstaged()) return;
  sink_->add_runs({finished_.begin() + static_cast<std::ptrdiff_t>(staged_), finished_.end()});
  staged_ = finished_.size();
}

std::vector<RunLog> RunRecorder::take() {
  took_runs_ = !finished_.empty();
  unstaged_.clear();
  if (sink_ && rules_.complete_flushes) {
    unstaged_.assign(finished_.begin() + static_cast<std::ptrdiff_t>(staged_), finished_.end());
  } else if (sink_) {
    held_runs_.insert(held_runs_.end(), finished_.begin(), finished_.end());
  }
  staged_ = 0;
  std::vector<RunLog> runs;
  runs.swap(finished_);
  return runs;
}

bool RunRecorder::writes(std::size_t records) const {
  return sink_ && (records > 0 || took_runs_);
}

void RunRecorder::append(const std::vector<KernelRecord>& records) {
  last_write_ = std::chrono::steady_clock::now();
  if (!sink_) return;
  if (rules_.complete_flushes) {
    if (writes(records.size())) sink_->append(unstaged_, RecordSlice::copy_of(records));
    return;
  }
  release(RecordSlice::copy_of(records), false);
}

void RunRecorder::append_last(RecordSlice records) {
  if (!sink_) return;
  if (rules_.complete_flushes) {
    if (writes(records.size())) sink_->append(unstaged_, std::move(records));
    return;
  }
  release(std::move(records), true);
}

void RunRecorder::release(RecordSlice records, bool all) {
  const auto end = held_runs_.begin() +
                   static_cast<std::ptrdiff_t>(all ? held_runs_.size()
                                                   : complete_runs(held_runs_, records));
  const std::vector<RunLog> runs(std::make_move_iterator(held_runs_.begin()),
                                 std::make_move_iterator(end));
  held_runs_.erase(held_runs_.begin(), end);
  if (!runs.empty() || !records.empty()) sink_->append(runs, std::move(records));
  release_stops();
}

void RunRecorder::check(const std::vector<KernelRecord>& records,
                        const std::vector<RunLog>& runs) {
  if (!rules_.counts || !rules_.ignore_kernel_list || !rules_.complete_flushes) return;
  // Only the runs that finished: the records of a run that failed (on_config_error "skip")
  // belong to a config that is dropped. The logs come in the order of their runs.
  std::vector<RunId> finished;
  finished.reserve(runs.size());
  for (const auto& log : runs) finished.push_back(log.run);
  stable_sort_if_needed(finished, [](const RunId& a, const RunId& b) { return a < b; });
  for (auto& a : group_annotation_runs(records, runs, *rules_.ignore_kernel_list)) {
    a.order.erase(std::remove_if(a.order.begin(), a.order.end(),
                                 [&](const RunId& r) {
                                   return !std::binary_search(finished.begin(), finished.end(), r);
                                 }),
                  a.order.end());
    rules_.counts->check(a);
  }
}

void RunRecorder::stop(const ConfigStop& stop) {
  if (!sink_) return;
  held_stops_.push_back(stop);
  release_stops();
}

void RunRecorder::release_stops() {
  const auto waits = [&](const ConfigStop& s) {
    return std::any_of(held_runs_.begin(), held_runs_.end(),
                       [&](const RunLog& r) { return r.run.config == s.config; });
  };
  const auto rest = std::stable_partition(held_stops_.begin(), held_stops_.end(),
                                          [&](const ConfigStop& s) { return !waits(s); });
  for (auto it = held_stops_.begin(); it != rest; ++it) sink_->config_stopped(*it);
  held_stops_.erase(held_stops_.begin(), rest);
}

}  // namespace kscope
