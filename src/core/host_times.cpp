#include "core/host_times.hpp"

#include <cstdio>

#include <sys/resource.h>

namespace kscope {
namespace {
constexpr const char* kNames[HostTimes::kCount] = {
    "environment before", "tool before", "benchmark",    "synchronize", "tool after",
    "environment after",  "journal",     "region entry", "config start", "staging"};

std::int64_t ns(HostClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
}  // namespace

HostTimes::HostTimes(bool count_faults)
    : mark_(HostClock::now()), count_faults_(count_faults), faults_(minor_faults()) {}

const char* HostTimes::name(Phase phase) { return kNames[phase]; }

long HostTimes::minor_faults() const {
  if (!count_faults_) return 0;
#ifdef RUSAGE_THREAD
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) return usage.ru_minflt;
#endif
  return 0;
}

void HostTimes::skip() {
  start();
  faults_ = minor_faults();
}

void HostTimes::step(std::string name) {
  const HostClock::time_point start = mark_;
  const long faults = minor_faults();
  steps_.push_back({std::move(name), advance() - start, faults - faults_});
  faults_ = faults;
}

void HostTimes::reset_phases() {
  totals_ = {};
  runs_ = 0;
  spans_.clear();
  run_.reset();
  pass_ = 0;
}

std::vector<PhaseSpan> HostTimes::take_spans() {
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

std::string HostTimes::fixed_cost_summary() const {
  std::string out = "fixed cost (ms):";
  HostClock::duration total{};
  long faults = 0;
  char buf[96];
  for (const auto& s : steps_) {
    total += s.time;
    faults += s.faults;
    std::snprintf(buf, sizeof buf, " %s %.2f,", s.name.c_str(), milliseconds(s.time));
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " total %.2f", milliseconds(total));
  out += buf;
  if (faults == 0) return out;
  out += "; minor page faults (this thread):";
  for (const auto& s : steps_) {
    if (s.faults < 10) continue;
    std::snprintf(buf, sizeof buf, " %s %ld,", s.name.c_str(), s.faults);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " total %ld", faults);
  return out + buf;
}

std::string HostTimes::per_run_summary(std::optional<HostClock::duration> loop) const {
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
    HostClock::duration covered{};
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
