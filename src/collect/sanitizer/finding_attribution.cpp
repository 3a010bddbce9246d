#include "collect/sanitizer/finding_attribution.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <utility>

#include "collect/sanitizer/sanitizer_report.hpp"

namespace kscope::sanitizer {
namespace {

using Counts = std::map<std::string, std::size_t>;

constexpr char kSeparator = '\x1f';

std::size_t count_of(const Counts& c, const std::string& key) {
  const auto it = c.find(key);
  return it == c.end() ? 0 : it->second;
}

Counts count_signatures(const std::vector<Finding>& findings) {
  Counts out;
  for (const auto& f : findings) {
    if (!is_leak(f)) ++out[finding_signature(f)];
  }
  return out;
}

std::string dim_text(const std::optional<Dim3>& d) {
  if (!d) return "-";
  return std::to_string(d->x) + "," + std::to_string(d->y) + "," + std::to_string(d->z);
}

// What a run found that belongs to the benchmark: everything but leaks allocated outside the
// session (the program's own buffers, "leaked" only because the child ends at the session).
std::vector<Finding> benchmark_findings(const std::vector<Finding>& findings) {
  std::vector<Finding> out;
  for (const auto& f : findings) {
    if (!is_leak(f) || allocated_in_session(f)) out.push_back(f);
  }
  return out;
}

subprocess::ChildScope check_scope(std::optional<std::size_t> config, std::size_t stop_at = 0) {
  subprocess::ChildScope s;
  if (config) s.configs = std::vector<std::size_t>{*config};
  s.once = true;
  s.stop_at = stop_at;
  s.release_device = true;
  return s;
}

class Attributor {
 public:
  Attributor(const std::string& check, const CheckRunner& runner)
      : check_(check), runner_(runner) {}

  CheckRun run(const subprocess::ChildScope& scope) {
    ++out_.program_runs;
    CheckRun r = runner_(check_, scope);
    out_.truncated = out_.truncated || r.truncated;
    return r;
  }

  // The findings of config `c`, whose run `r` checked alone (the sweep itself when there is one
  // config).
  void place_config(std::size_t c, const CheckRun& r) {
    std::vector<Finding> kernels;
    std::vector<Finding> api_errors;
    for (auto& f : benchmark_findings(r.findings)) {
      if (is_leak(f)) {
        f.attribution = "session";
        add(std::move(f), c);
      } else {
        (is_api_error(f) ? api_errors : kernels).push_back(std::move(f));
      }
    }
    // After an error in a kernel, the CUDA API calls that failed are its consequences (the
    // context is unusable): they are kept with their run, but not placed by the narrowing runs,
    // whose own calls at the boundary where they stop fail too. Failed calls alone are placed.
    std::vector<Finding> consequences;
    if (kernels.empty()) {
      kernels = std::move(api_errors);
    } else {
      consequences = std::move(api_errors);
    }
    if (kernels.empty()) return;
    if (!r.ended_early.empty()) {
      out_.notes.push_back(check_ + ", config " + std::to_string(c) +
                           ": the program's run ended after the error was found, so later "
                           "kernels of that run were not checked (" +
                           r.ended_early + ").");
    }
    if (!r.reported) {
      kernels.insert(kernels.end(), consequences.begin(), consequences.end());
      add_in_run(std::move(kernels), c);
      return;
    }
    std::vector<std::string> annotations;
    for (const auto& e : r.trace) {
      if (e.run.config == c && !e.run.warmup) annotations.push_back(e.annotation);
    }
    const auto probe = [&](std::size_t boundary) { return run(check_scope(c, boundary)).findings; };
    for (auto& f : place_in_run(kernels, annotations, probe)) add(std::move(f), c);
    add_in_run(std::move(consequences), c);
  }

  CheckOutcome finish(const std::vector<Finding>& sweep) {
    // What the whole sweep found but no config alone did: kept, without a place.
    std::set<std::string> placed;
    for (const auto& f : out_.findings) placed.insert(finding_signature(f));
    std::size_t unplaced = 0;
    for (const auto& f : sweep) {
      if (placed.count(finding_signature(f)) != 0) continue;
      Finding u = f;
      u.attribution = "unattributed";
      out_.findings.push_back(std::move(u));
      // A failed API call of the sweep (e.g. after an earlier config's error) is kept silently.
      if (!is_api_error(f)) ++unplaced;
    }
    if (unplaced > 0) {
      out_.notes.push_back(
          check_ + ": " + std::to_string(unplaced) +
          " finding(s) of the whole sweep did not show up again when each config was checked "
          "alone (a race that depends on timing, or an error caused by an earlier config); they "
          "are listed without config, attribution 'unattributed'.");
    }
    return std::move(out_);
  }

 private:
  void add(Finding f, std::size_t c) {
    f.config = c;
    f.run = 0;  // the sanitizer checks each config once
    out_.findings.push_back(std::move(f));
  }

  // In config c's run, annotation not determined.
  void add_in_run(std::vector<Finding> findings, std::size_t c) {
    for (auto& f : findings) {
      f.annotation.clear();
      f.attribution = "run";
      add(std::move(f), c);
    }
  }

  const std::string& check_;
  const CheckRunner& runner_;
  CheckOutcome out_;
};

}  // namespace

std::string finding_signature(const Finding& f) {
  std::string s;
  for (const std::string& part :
       {f.check, f.category, f.kind, f.kernel, f.function, f.file,
        f.line ? std::to_string(*f.line) : std::string(),
        f.pc ? std::to_string(*f.pc) : std::string(), dim_text(f.block), dim_text(f.thread),
        f.size ? std::to_string(*f.size) : std::string(), f.detail}) {
    s += part;
    s += kSeparator;
  }
  // Leaks carry no kernel or code location: where they were allocated tells them apart.
  if (is_leak(f)) {
    for (const auto& frame : f.host_stack) s += frame + kSeparator;
  }
  return s;
}

bool allocated_in_session(const Finding& leak) {
  return std::any_of(leak.host_stack.begin(), leak.host_stack.end(), [](const std::string& frame) {
    return frame.find("kscope::Session::") != std::string::npos;
  });
}

std::vector<Finding> place_in_run(const std::vector<Finding>& full,
                                  const std::vector<std::string>& annotations,
                                  const BoundaryProbe& probe) {
  std::vector<Finding> out = full;
  if (annotations.empty()) {
    for (auto& f : out) {
      f.annotation.clear();
      f.attribution = "outside";
    }
    return out;
  }
  // Boundary b (1 .. 2k) is the entry (odd b) or exit (even b) of annotation (b + 1) / 2; 0 is
  // the start of the run and 2k + 1 its end. Window w lies between boundaries w - 1 and w: even
  // windows are inside annotation w / 2, odd ones outside any.
  const std::size_t end = 2 * annotations.size() + 1;
  std::map<std::size_t, Counts> arrivals;  // window -> signature -> findings launched there
  std::function<void(std::size_t, std::size_t, const Counts&, const Counts&)> locate =
      [&](std::size_t lo, std::size_t hi, const Counts& at_lo, const Counts& at_hi) {
        Counts grew;
        for (const auto& [sig, n] : at_hi) {
          if (n > count_of(at_lo, sig)) grew[sig] = n - count_of(at_lo, sig);
        }
        if (grew.empty()) return;
        if (hi - lo == 1) {
          for (const auto& [sig, n] : grew) arrivals[hi][sig] += n;
          return;
        }
        const std::size_t mid = lo + (hi - lo) / 2;
        const Counts seen = count_signatures(probe(mid));
        // Counts only grow along the run; a run that saw more or fewer (a flaky race) is clamped.
        Counts at_mid;
        for (const auto& [sig, n] : at_hi) {
          at_mid[sig] = std::clamp(count_of(seen, sig), count_of(at_lo, sig), n);
        }
        locate(lo, mid, at_lo, at_mid);
        locate(mid, hi, at_mid, at_hi);
      };
  locate(0, end, Counts{}, count_signatures(full));

  // Hand the windows out in report order, earliest window first.
  std::map<std::string, std::deque<std::size_t>> windows;
  for (const auto& [window, counts] : arrivals) {
    for (const auto& [sig, n] : counts) windows[sig].insert(windows[sig].end(), n, window);
  }
  for (auto& f : out) {
    auto& queue = windows[finding_signature(f)];
    const std::size_t w = queue.empty() ? end : queue.front();
    if (!queue.empty()) queue.pop_front();
    const bool inside = w % 2 == 0;
    f.annotation = inside ? annotations[w / 2 - 1] : std::string();
    f.attribution = inside ? "annotation" : "outside";
  }
  return out;
}

CheckOutcome attribute_check(const std::string& check, std::size_t num_configs,
                             const CheckRunner& runner) {
  Attributor a(check, runner);
  const CheckRun sweep = a.run(check_scope(std::nullopt));
  const std::vector<Finding> found = benchmark_findings(sweep.findings);
  if (found.empty()) return a.finish({});
  if (num_configs <= 1) {
    a.place_config(0, sweep);
    return a.finish({});
  }
  for (std::size_t c = 0; c < num_configs; ++c) a.place_config(c, a.run(check_scope(c)));
  return a.finish(found);
}

}  // namespace kscope::sanitizer
