#include "core/run_recorder.hpp"

#include <algorithm>
#include <iterator>

namespace kscope {
namespace {
// How many runs at the front of `held` (in the order they ran) have their records among
// `records`: up to the last of them that a record names. A collector that decodes in batches
// hands over whole runs in the order they ran, so the runs before that one are complete too
// (they may have no kernel at all); the runs after it wait.
std::size_t complete_runs(const std::vector<RunLog>& held, const std::vector<KernelRecord>& records) {
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

bool RunRecorder::has_unstaged() const {
  return sink_ && complete_ && staged_ < finished_.size();
}

void RunRecorder::stage() {
  if (!has_unstaged()) return;
  sink_->add_runs({finished_.begin() + static_cast<std::ptrdiff_t>(staged_), finished_.end()});
  staged_ = finished_.size();
}

std::vector<RunLog> RunRecorder::take() {
  took_runs_ = !finished_.empty();
  unstaged_.clear();
  if (sink_ && complete_) {
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
  if (!sink_) return;
  if (complete_) {
    if (writes(records.size())) sink_->append(unstaged_, records);
    return;
  }
  release(records, false);
}

void RunRecorder::append_last(const KernelRecord* records, std::size_t count) {
  if (!sink_) return;
  if (complete_) {
    if (writes(count)) sink_->append_last(unstaged_, records, count);
    return;
  }
  release(std::vector<KernelRecord>(records, records + count), true);
}

void RunRecorder::release(const std::vector<KernelRecord>& records, bool all) {
  const auto end = held_runs_.begin() +
                   static_cast<std::ptrdiff_t>(all ? held_runs_.size()
                                                   : complete_runs(held_runs_, records));
  const std::vector<RunLog> runs(std::make_move_iterator(held_runs_.begin()),
                                 std::make_move_iterator(end));
  held_runs_.erase(held_runs_.begin(), end);
  if (!runs.empty() || !records.empty()) sink_->append(runs, records);
  release_stops();
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
