#include "core/kernel_count_check.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/number_format.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

std::string format_average(double x) {
  std::string s = format_general(x, 10);
  if (s.find('.') == std::string::npos && s.find('e') == std::string::npos) s += ".0";
  return s;
}

std::string joined(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? separator : "") + names[i];
  return out;
}

std::vector<std::string> names_of(PointerRange<KernelRecord> kernels) {
  std::vector<std::string> names;
  names.reserve(kernels.size());
  for (const KernelRecord* k : kernels) names.push_back(k->kernel);
  return names;
}

}  // namespace

KernelCountCheck::KernelCountCheck(bool combine, std::vector<std::string> config_labels)
    : combine_(combine), labels_(std::move(config_labels)) {}

std::string KernelCountCheck::config_text(std::size_t config) const {
  std::string text = "config " + std::to_string(config);
  if (config < labels_.size() && !labels_[config].empty()) text += " (" + labels_[config] + ")";
  return text;
}

std::string KernelCountCheck::run_text(const RunId& run) const {
  return config_text(run.config) + " run " + std::to_string(run.run);
}

void KernelCountCheck::check(const AnnotationRuns& a) {
  auto& done = checked_[a.name];
  Seen* seen = nullptr;  // of the config last checked
  std::size_t seen_config = 0;
  auto next = a.runs.begin();  // `order` names runs of `runs`, in the same order
  for (const auto& run : a.order) {
    if (done.empty() || done.back() < run) {
      done.push_back(run);
    } else if (std::binary_search(done.begin(), done.end(), run)) {
      continue;
    } else {
      done.insert(std::upper_bound(done.begin(), done.end(), run), run);
    }
    while (next != a.runs.end() && next->id < run) ++next;
    if (next == a.runs.end() || !(next->id == run)) {
      throw std::out_of_range("KernelCountCheck: a run of the order is not one of the runs");
    }
    const AnnotationRuns::Run& r = *next;
    if (r.failed) continue;
    const std::size_t config = combine_ ? run.config : 0;
    if (!seen || config != seen_config) {
      seen = &seen_[{a.name, config}];
      seen_config = config;
    }
    check_run(a.name, run, a.kernels(r), *seen);
  }
}

void KernelCountCheck::check_run(const std::string& annotation, const RunId& run,
                                 PointerRange<KernelRecord> kernels, Seen& seen) {
  ++seen.runs;
  seen.kernels += kernels.size();
  auto it = std::find_if(seen.counts.begin(), seen.counts.end(),
                         [&](const Count& c) { return c.kernels == kernels.size(); });
  if (it == seen.counts.end()) {
    seen.counts.push_back(Count{kernels.size(), 0, run, names_of(kernels)});
    it = std::prev(seen.counts.end());
  }
  ++it->runs;

  if (seen.counts.size() > 1) {
    std::string detail;
    for (const auto& c : seen.counts) {
      detail += "\n  " + std::to_string(c.kernels) + " kernel(s) in " + std::to_string(c.runs) +
                " run(s), e.g. " + run_text(c.example) +
                (c.example_kernels.empty() ? "" : ": " + joined(c.example_kernels, ", "));
    }
    const std::string where = combine_ ? ", " + config_text(run.config) : std::string();
    throw ExtractionError(
        "Expect same number of kernels per run. Got average of " +
        format_average(static_cast<double>(seen.kernels) / static_cast<double>(seen.runs)) +
        " per run in annotation '" + annotation + "'" + where + ":" + detail +
        "\nKernels launched only in some runs (autotuning, lazy initialisation) belong in "
        "warm-up runs (warmup_runs) or outside the annotation." +
        (combine_ ? std::string()
                  : " Kernel counts may differ between configs with combine_kernel_metrics."));
  }
  if (kernels.size() > 1 && !combine_) {
    throw ExtractionError(
        "More than one (total=" + std::to_string(kernels.size()) + ") kernel is launched within the " +
        annotation + " annotation, in " + run_text(run) +
        ".\nWe expect one kernel per annotation.\nTry one of the following solutions:\n"
        "  - Use `replay_mode='range'` to measure the annotated range as one result\n"
        "  - Use `combine_kernel_metrics = lambda x, y: ...` (C++: "
        "Options::combine_kernel_metrics) to combine the kernels' values, e.g. their sum\n"
        "  - Add some of the kernels to the ignore_kernel_list\nKernels of that run, in launch "
        "order, are:\n" +
        joined(names_of(kernels), "\n"));
  }
}

}  // namespace kscope
