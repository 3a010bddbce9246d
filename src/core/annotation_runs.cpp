#include "core/annotation_runs.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "core/kernel_name.hpp"
#include "core/sort_if_needed.hpp"

namespace kscope {
namespace {

// The ignore list, its verdict remembered per (name, mangled name): matching demangles, and a
// sweep launches the same few kernels again and again.
class IgnoreList {
 public:
  explicit IgnoreList(const std::vector<std::string>& patterns) : patterns_(patterns) {}

  bool ignored(const KernelRecord& k) {
    if (patterns_.empty()) return false;
    const auto [it, inserted] = verdicts_.try_emplace({k.kernel, k.mangled}, false);
    if (inserted) it->second = matches(k);
    return it->second;
  }

 private:
  bool matches(const KernelRecord& k) const {
    for (const auto& pattern : patterns_) {
      if (kernel_name_matches(k.kernel, pattern) ||
          (!k.mangled.empty() && kernel_name_matches(k.mangled, pattern))) {
        return true;
      }
    }
    return false;
  }

  const std::vector<std::string>& patterns_;
  std::map<std::pair<std::string_view, std::string_view>, bool> verdicts_;  // views of records
};

}  // namespace

std::vector<AnnotationRuns> group_annotation_runs(const std::vector<KernelRecord>& records,
                                                  const std::vector<RunLog>& runs,
                                                  const std::vector<std::string>& ignore_kernel_list) {
  std::vector<AnnotationRuns> out;
  std::map<std::string_view, std::size_t> index;  // views of the names in `records` and `runs`
  std::size_t last = 0;                           // the annotation found last
  auto annotation = [&](const std::string& name) -> AnnotationRuns& {
    if (last < out.size() && out[last].name == name) return out[last];
    const auto [it, inserted] = index.try_emplace(name, out.size());
    if (inserted) {
      out.emplace_back();
      out.back().name = name;
    }
    last = it->second;
    return out[last];
  };

  // The run logs in (config, run) order: each annotation's runs come sorted.
  std::vector<const RunLog*> ordered_runs;
  for (const auto& log : runs) {
    if (!log.run.warmup) ordered_runs.push_back(&log);
  }
  stable_sort_if_needed(ordered_runs,
                        [](const RunLog* a, const RunLog* b) { return a->run < b->run; });
  auto touch = [](AnnotationRuns& a, const RunId& run) -> AnnotationRuns::Run& {
    if (a.runs.empty() || !(a.runs.back().id == run)) a.runs.push_back({run});
    return a.runs.back();
  };
  for (const RunLog* log : ordered_runs) {
    for (const auto& name : log->entered) touch(annotation(name), log->run);
    for (const auto& name : log->failed) touch(annotation(name), log->run).failed = true;
  }

  // The records in (run, launch) order: each annotation's come run after run, so its kernels
  // are appended to all_kernels run after run. A run that no log names (a journal cut between a
  // run's records and its log) is added after the logged ones and merged in at the end.
  std::vector<const KernelRecord*> sorted;
  for (const auto& r : records) {
    if (!r.run.warmup && !r.annotation.empty()) sorted.push_back(&r);
  }
  stable_sort_if_needed(sorted, [](const KernelRecord* a, const KernelRecord* b) {
    if (!(a->run == b->run)) return a->run < b->run;
    return a->sequence < b->sequence;
  });
  std::vector<std::size_t> logged(out.size());  // per annotation: runs from the logs
  for (std::size_t i = 0; i < out.size(); ++i) logged[i] = out[i].runs.size();
  std::vector<std::size_t> cursor(out.size(), 0);  // per annotation: the logged run reached
  IgnoreList ignore(ignore_kernel_list);
  for (const KernelRecord* r : sorted) {
    AnnotationRuns& a = annotation(r->annotation);
    if (last >= logged.size()) {  // an annotation no log names
      logged.resize(last + 1, 0);
      cursor.resize(last + 1, 0);
    }
    std::size_t& c = cursor[last];
    while (c < logged[last] && a.runs[c].id < r->run) ++c;
    AnnotationRuns::Run* run = nullptr;
    if (c < logged[last] && a.runs[c].id == r->run) {
      run = &a.runs[c];
    } else {
      if (a.runs.size() == logged[last] || !(a.runs.back().id == r->run)) {
        a.runs.push_back({r->run});
      }
      run = &a.runs.back();
    }
    if (ignore.ignored(*r)) continue;
    if (run->count == 0) run->first = a.all_kernels.size();
    a.all_kernels.push_back(r);
    ++run->count;
  }
  auto by_id = [](const AnnotationRuns::Run& x, const AnnotationRuns::Run& y) {
    return x.id < y.id;
  };
  for (std::size_t i = 0; i < out.size(); ++i) {
    AnnotationRuns& a = out[i];
    const auto middle = a.runs.begin() + static_cast<std::ptrdiff_t>(logged[i]);
    if (middle != a.runs.end()) std::inplace_merge(a.runs.begin(), middle, a.runs.end(), by_id);
    a.order.reserve(a.runs.size());
    for (const auto& run : a.runs) a.order.push_back(run.id);
  }
  return out;
}

}  // namespace kscope
