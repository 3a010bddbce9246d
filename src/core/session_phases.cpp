#include "core/session_phases.hpp"

#include <cstdio>

namespace kscope {
namespace {
constexpr const char* kNames[SessionPhases::kCount] = {
    "environment before", "tool before", "benchmark",    "synchronize", "tool after",
    "environment after",  "journal",     "region entry", "config start", "staging"};

std::int64_t ns(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
}  // namespace

const char* SessionPhases::name(Phase phase) { return kNames[phase]; }

std::vector<PhaseSpan> SessionPhases::take_spans() {
  std::vector<PhaseSpan> out;
  out.reserve(spans_.size());
  for (auto& s : spans_) {
    PhaseSpan p;
    p.phase = kNames[s.phase];
    if (s.run) {
      p.config = s.run->config;
      p.run = s.run->run;
      p.warmup = s.run->warmup;
    }
    p.pass = s.pass;
    p.annotation = std::move(s.annotation);
    p.start_ns = ns(s.start);
    p.end_ns = ns(s.end);
    out.push_back(std::move(p));
  }
  spans_.clear();
  return out;
}

std::string SessionPhases::summary(std::optional<std::chrono::steady_clock::duration> loop) const {
  if (runs_ == 0) return "no runs";
  std::string out = "host time per run (us, mean over " + std::to_string(runs_) + " executions):";
  for (std::size_t i = 0; i < kCount; ++i) {
    const double us = std::chrono::duration<double, std::micro>(totals_[i]).count() / runs_;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %s %.1f", i ? "," : "",
                  i == kRegionEntry ? "region entry (in benchmark)" : kNames[i], us);
    out += buf;
  }
  if (loop) {
    Clock::duration covered{};
    for (std::size_t i = 0; i < kCount; ++i) {
      if (i != kRegionEntry) covered += totals_[i];  // region entries lie inside the benchmark
    }
    const double us = std::chrono::duration<double, std::micro>(*loop - covered).count() / runs_;
    char buf[64];
    std::snprintf(buf, sizeof buf, ", outside the phases %.1f", us);
    out += buf;
  }
  return out;
}

}  // namespace kscope
