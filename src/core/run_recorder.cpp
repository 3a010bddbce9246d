#include "core/run_recorder.hpp"

#include <iterator>

namespace kscope {

bool RunRecorder::has_unstaged() const { return sink_ && staged_ < finished_.size(); }

void RunRecorder::stage() {
  if (!has_unstaged()) return;
  sink_->add_runs({finished_.begin() + static_cast<std::ptrdiff_t>(staged_), finished_.end()});
  staged_ = finished_.size();
}

std::vector<RunLog> RunRecorder::take() {
  took_runs_ = !finished_.empty();
  unstaged_.clear();
  if (sink_) {
    unstaged_.assign(finished_.begin() + static_cast<std::ptrdiff_t>(staged_), finished_.end());
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
  if (writes(records.size())) sink_->append(unstaged_, records);
}

void RunRecorder::append_last(const KernelRecord* records, std::size_t count) {
  if (writes(count)) sink_->append_last(unstaged_, records, count);
}

void RunRecorder::stop(const ConfigStop& stop) {
  if (sink_) sink_->config_stopped(stop);
}

}  // namespace kscope
