#include "report/journal_compact.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <tuple>
#include <type_traits>

#include "report/json_codec.hpp"
#include "report/json_text.hpp"

namespace kscope::report {
namespace {

template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
void number(std::string& out, Int v) {
  append_json_integer(out, v);
}

// The shortest text that reads back as `x` ("100", "0.1", "1e+20"); null when not finite.
void number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[32];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

void number(std::string& out, bool b) { out += b ? "true" : "false"; }

template <class T>
void number(std::string& out, const std::optional<T>& v) {
  if (v) {
    number(out, *v);
  } else {
    out += "null";
  }
}

// `values` as comma-separated array elements (numbers, true/false, null for an absent optional).
template <class First, class... Rest>
void numbers(std::string& out, const First& first, const Rest&... rest) {
  number(out, first);
  ((out += ',', number(out, rest)), ...);
}

template <class F>
std::vector<InfoValue> info_values_from(const F& j) {
  std::vector<InfoValue> out;
  for (const auto& v : j.items()) out.push_back(info_value_from_json(v));
  return out;
}

void annotations(std::string& out, const std::vector<std::string>& list, JournalNameWriter& names) {
  out += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    number(out, names.annotation(list[i]));
  }
  out += ']';
}

template <class F>
std::vector<std::string> annotations_from(const F& j, const JournalNameReader& names) {
  std::vector<std::string> out;
  for (const auto& a : j.items()) out.push_back(names.annotation(a));
  return out;
}

void sample(std::string& out, const std::optional<TelemetrySample>& s) {
  if (!s) {
    out += "null";
    return;
  }
  out += '[';
  numbers(out, s->sm_clock_mhz, s->memory_clock_mhz, s->temperature_c, s->headroom_c, s->power_w,
          s->clock_event_reasons, s->age_ms);
  out += ']';
}

template <class T, class F>
std::optional<T> optional_from(const F& j) {
  if (j.is_null()) return std::nullopt;
  return j.template get<T>();
}

template <class F>
std::optional<TelemetrySample> sample_from(const F& j) {
  if (j.is_null()) return std::nullopt;
  const auto age = j.element(6);  // the reading has its seven elements from here on
  const auto f = j.items();
  TelemetrySample s;
  s.sm_clock_mhz = optional_from<int>(f[0]);
  s.memory_clock_mhz = optional_from<int>(f[1]);
  s.temperature_c = optional_from<int>(f[2]);
  s.headroom_c = optional_from<int>(f[3]);
  s.power_w = optional_from<double>(f[4]);
  s.clock_event_reasons = optional_from<std::uint64_t>(f[5]);
  s.age_ms = optional_from<double>(age);
  return s;
}

bool same_execution(const PhaseSpan& a, const PhaseSpan& b) {
  return a.config == b.config && a.run == b.run && a.warmup == b.warmup && a.pass == b.pass;
}

template <class F>
std::int64_t duration_from(const F& j) {
  const auto d = j.template get<std::int64_t>();
  if (d < 0) j.fail("a duration not below 0");
  return d;
}

}  // namespace

void append_compact(std::string& out, const RunLog& r, JournalNameWriter& names) {
  out += '[';
  numbers(out, r.run.config, r.run.run);
  out += ',';
  annotations(out, r.entered, names);
  out += ',';
  annotations(out, r.failed, names);
  if (!r.info.empty() || !r.annotation_info.empty()) {
    out += ',';
    append_json(out, r.info);
  }
  if (!r.annotation_info.empty()) {
    out += ",[";
    for (std::size_t i = 0; i < r.annotation_info.size(); ++i) {
      out += i ? ",[" : "[";
      numbers(out, names.annotation(r.annotation_info[i].annotation));
      out += ',';
      append_json(out, r.annotation_info[i].values);
      out += ']';
    }
    out += ']';
  }
  out += ']';
}

void append_compact(std::string& out, const KernelRecord& k, JournalNameWriter& names) {
  out += '[';
  numbers(out, k.run.config, k.run.run, names.annotation(k.annotation),
          names.kernel(k.kernel, k.mangled), k.device, k.sequence);
  out += ",[";
  for (std::size_t i = 0; i < k.metrics.size(); ++i) {
    if (i) out += ',';
    numbers(out, names.metric(k.metrics[i].metric, k.metrics[i].unit), k.metrics[i].value);
  }
  out += ']';
  if (k.start_ns || k.end_ns || k.stream) {
    out += ',';
    numbers(out, k.start_ns,
            k.start_ns && k.end_ns ? std::optional(*k.end_ns - *k.start_ns) : k.end_ns, k.stream);
  }
  out += ']';
}

void append_compact(std::string& out, const RunTelemetry& t) {
  out += '[';
  numbers(out, t.config, t.run, t.device);
  out += ',';
  sample(out, t.before);
  out += ',';
  sample(out, t.after);
  out += ',';
  number(out, t.cooling_wait_s);
  out += ']';
}

void append_compact_phases(std::string& laps, std::string& spans,
                           const std::vector<PhaseSpan>& phases, JournalNameWriter& names) {
  const PhaseSpan* previous = nullptr;  // the last lap of the group being written
  const auto close_group = [&] {
    laps += ']';
    if (previous->warmup || previous->pass != 0) {
      laps += ',';
      numbers(laps, previous->warmup, previous->pass);
    }
    laps += ']';
  };
  for (const auto& p : phases) {
    const bool lap = p.annotation.empty() && p.config && p.run;
    if (!lap) {
      if (!spans.empty()) spans += ',';
      spans += '[';
      numbers(spans, names.phase(p.phase), p.config, p.run,
              p.annotation.empty() ? std::nullopt : std::optional(names.annotation(p.annotation)),
              p.start_ns, p.end_ns - p.start_ns);
      if (p.warmup || p.pass != 0 || p.part != 0) {
        spans += ',';
        numbers(spans, p.warmup, p.pass, p.part);
      }
      spans += ']';
      continue;
    }
    const bool continues = previous && same_execution(*previous, p) && previous->end_ns == p.start_ns;
    if (!continues) {
      if (previous) close_group();
      if (!laps.empty()) laps += ',';
      laps += '[';
      numbers(laps, *p.config, *p.run, p.start_ns);
      laps += ",[";
    } else {
      laps += ',';
    }
    numbers(laps, names.phase(p.phase), p.end_ns - p.start_ns);
    previous = &p;
  }
  if (previous) close_group();
}

template <class F>
RunLog compact_run_from_json(const F& j, const JournalNameReader& names) {
  const auto items = j.items();
  RunLog r;
  r.run.config = j.element(0).template get<std::size_t>();
  r.run.run = j.element(1).template get<std::size_t>();
  r.entered = annotations_from(j.element(2), names);
  check_entered_once(j.element(2), r.entered);
  r.failed = annotations_from(j.element(3), names);
  if (items.size() > 4) r.info = info_values_from(items[4]);
  if (items.size() > 5) {
    for (const auto& a : items[5].items()) {
      r.annotation_info.push_back({names.annotation(a.element(0)), info_values_from(a.element(1))});
    }
  }
  return r;
}

template <class F>
KernelRecord compact_record_from_json(const F& j, const JournalNameReader& names) {
  const auto items = j.items();
  KernelRecord k;
  k.run.config = j.element(0).template get<std::size_t>();
  k.run.run = j.element(1).template get<std::size_t>();
  k.annotation = names.annotation(j.element(2));
  std::tie(k.kernel, k.mangled) = names.kernel(j.element(3));
  k.device = j.element(4).template get<int>();
  k.sequence = j.element(5).template get<std::uint64_t>();
  const auto metrics = j.element(6).items();
  if (metrics.size() % 2 != 0) j.element(6).fail("an array of metric and value pairs");
  for (std::size_t i = 0; i < metrics.size(); i += 2) {
    const auto& [metric, unit] = names.metric(metrics[i]);
    k.metrics.push_back({metric, metrics[i + 1].template get<double>(), unit});
  }
  if (items.size() > 7) {
    const auto at = [&](std::size_t i) { return items.size() > i && !items[i].is_null(); };
    if (at(7)) k.start_ns = items[7].template get<std::int64_t>();
    if (at(8)) k.end_ns = items[8].template get<std::int64_t>() + k.start_ns.value_or(0);
    if (at(9)) k.stream = items[9].template get<std::uint32_t>();
  }
  return k;
}

template <class F>
std::vector<RunTelemetry> compact_telemetry_from_json(const F& j) {
  std::vector<RunTelemetry> out;
  for (const auto& t : j.items()) {
    RunTelemetry r;
    r.config = t.element(0).template get<std::size_t>();
    r.run = t.element(1).template get<std::size_t>();
    r.device = t.element(2).template get<int>();
    r.before = sample_from(t.element(3));
    r.after = sample_from(t.element(4));
    r.cooling_wait_s = t.element(5).template get<double>();
    out.push_back(std::move(r));
  }
  return out;
}

template <class F>
std::vector<PhaseSpan> compact_laps_from_json(const F& j, const JournalNameReader& names) {
  std::vector<PhaseSpan> out;
  for (const auto& group : j.items()) {
    const auto fields = group.items();
    PhaseSpan p;
    p.config = group.element(0).template get<std::size_t>();
    p.run = group.element(1).template get<std::size_t>();
    std::int64_t at = group.element(2).template get<std::int64_t>();
    const auto laps = group.element(3).items();
    if (laps.size() % 2 != 0) group.element(3).fail("an array of phase and duration pairs");
    if (fields.size() > 4) {
      p.warmup = fields[4].template get<bool>();
      p.pass = group.element(5).template get<int>();
    }
    for (std::size_t i = 0; i < laps.size(); i += 2) {
      p.phase = names.phase(laps[i]);
      p.start_ns = at;
      p.end_ns = at + duration_from(laps[i + 1]);
      at = p.end_ns;
      out.push_back(p);
    }
  }
  return out;
}

template <class F>
std::vector<PhaseSpan> compact_spans_from_json(const F& j, const JournalNameReader& names) {
  std::vector<PhaseSpan> out;
  for (const auto& s : j.items()) {
    const auto duration = s.element(5);  // the span has its six elements from here on
    const auto fields = s.items();
    PhaseSpan p;
    p.phase = names.phase(fields[0]);
    if (!fields[1].is_null()) p.config = fields[1].template get<std::size_t>();
    if (!fields[2].is_null()) p.run = fields[2].template get<std::size_t>();
    if (!fields[3].is_null()) p.annotation = names.annotation(fields[3]);
    p.start_ns = fields[4].template get<std::int64_t>();
    p.end_ns = p.start_ns + duration_from(duration);
    if (fields.size() > 6) {
      p.warmup = fields[6].template get<bool>();
      p.pass = s.element(7).template get<int>();
      p.part = s.element(8).template get<std::size_t>();
    }
    out.push_back(std::move(p));
  }
  return out;
}

// Every reader, for both kinds of field.
#define KSCOPE_COMPACT_READERS(F)                                                              \
  template RunLog compact_run_from_json(const F&, const JournalNameReader&);                   \
  template KernelRecord compact_record_from_json(const F&, const JournalNameReader&);          \
  template std::vector<RunTelemetry> compact_telemetry_from_json(const F&);                    \
  template std::vector<PhaseSpan> compact_laps_from_json(const F&, const JournalNameReader&);  \
  template std::vector<PhaseSpan> compact_spans_from_json(const F&, const JournalNameReader&);
KSCOPE_COMPACT_READERS(JsonField)
KSCOPE_COMPACT_READERS(TapeField)
#undef KSCOPE_COMPACT_READERS

}  // namespace kscope::report
