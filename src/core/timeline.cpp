// The timeline's packed span lists (kscope/timeline.hpp).

#include <stdexcept>

#include "kscope/timeline.hpp"

namespace kscope {
namespace detail {

std::uint32_t SpanNames::id(const std::string& name) {
  const auto [at, added] = ids_.emplace(name, static_cast<std::uint32_t>(names_.size()));
  if (added) names_.push_back(name);
  return at->second;
}

}  // namespace detail

namespace {

// The index of `run` among `groups`' runs: the last one when equal (a run's phases come
// together), else a new one.
std::uint32_t group_of(detail::SpanGroups<PhaseSpan>& groups,
                       const detail::SpanGroups<PhaseSpan>::Run& run) {
  if (groups.runs.empty() || !(groups.runs.back() == run)) groups.runs.push_back(run);
  return static_cast<std::uint32_t>(groups.runs.size() - 1);
}

}  // namespace

template <>
void SpanList<PhaseSpan>::push_back(const PhaseSpan& s) {
  const std::uint32_t group =
      group_of(groups_, {s.config.value_or(0), s.run.value_or(0), s.part, s.pass, s.warmup,
                         s.config.has_value(), s.run.has_value()});
  const std::uint32_t phase = names_.id(s.phase);
  const std::uint32_t annotation = names_.id(s.annotation);
  const auto [at, added] = groups_.name_ids.emplace(
      (std::uint64_t{phase} << 32) | annotation, static_cast<std::uint32_t>(groups_.names.size()));
  if (added) groups_.names.emplace_back(phase, annotation);
  spans_.push_back({s.start_ns, s.end_ns, group, at->second});
}

template <>
PhaseSpan SpanList<PhaseSpan>::operator[](std::size_t i) const {
  const auto& p = spans_[i];
  const auto& run = groups_.runs[p.group];
  const auto& [phase, annotation] = groups_.names[p.names];
  PhaseSpan s;
  s.phase = names_.name(phase);
  if (run.has_config) s.config = run.config;
  if (run.has_run) s.run = run.run;
  s.warmup = run.warmup;
  s.pass = run.pass;
  s.annotation = names_.name(annotation);
  s.start_ns = p.start_ns;
  s.end_ns = p.end_ns;
  s.part = run.part;
  return s;
}

template <>
void SpanList<KernelSpan>::push_back(const KernelSpan& k) {
  spans_.push_back({k.start_ns, k.end_ns, k.config, k.run, k.part, names_.id(k.annotation),
                    names_.id(k.kernel), k.device, k.stream.value_or(0), k.stream.has_value(),
                    k.warmup});
}

template <>
KernelSpan SpanList<KernelSpan>::operator[](std::size_t i) const {
  const auto& p = spans_[i];
  KernelSpan k;
  k.annotation = names_.name(p.annotation);
  k.kernel = names_.name(p.kernel);
  k.config = p.config;
  k.run = p.run;
  k.warmup = p.warmup;
  k.device = p.device;
  if (p.has_stream) k.stream = p.stream;
  k.start_ns = p.start_ns;
  k.end_ns = p.end_ns;
  k.part = p.part;
  return k;
}

template <class Span>
Span SpanList<Span>::at(std::size_t i) const {
  if (i >= size()) {
    throw std::out_of_range("span " + std::to_string(i) + " of a timeline of " +
                            std::to_string(size()));
  }
  return (*this)[i];
}

template class SpanList<PhaseSpan>;
template class SpanList<KernelSpan>;

}  // namespace kscope
