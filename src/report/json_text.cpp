#include "report/json_text.hpp"

#include <charconv>
#include <cmath>

#include "report/json_codec.hpp"

namespace kscope::report {
namespace {

template <class Int>
void append_int(std::string& out, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

template <class T>
void append_optional_int(std::string& out, const std::optional<T>& v) {
  if (v) {
    append_int(out, *v);
  } else {
    out += "null";
  }
}

void append_optional_number(std::string& out, const std::optional<double>& v) {
  if (v) {
    append_json_number(out, *v);
  } else {
    out += "null";
  }
}

void append_strings(std::string& out, const std::vector<std::string>& items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, items[i]);
  }
  out += ']';
}

// Info collectors' values are rare on the hot path: the codec's own encoding.
void append_info(std::string& out, const std::vector<InfoValue>& values) {
  Json a = Json::array();
  for (const auto& v : values) a.push_back(to_json(v));
  out += to_text(a);
}

void append_sample(std::string& out, const std::optional<TelemetrySample>& s) {
  if (!s) {
    out += "null";
    return;
  }
  out += "{\"sm_clock_mhz\":";
  append_optional_int(out, s->sm_clock_mhz);
  out += ",\"memory_clock_mhz\":";
  append_optional_int(out, s->memory_clock_mhz);
  out += ",\"temperature_c\":";
  append_optional_int(out, s->temperature_c);
  out += ",\"headroom_c\":";
  append_optional_int(out, s->headroom_c);
  out += ",\"power_w\":";
  append_optional_number(out, s->power_w);
  out += ",\"clock_event_reasons\":";
  append_optional_int(out, s->clock_event_reasons);
  out += ",\"age_ms\":";
  append_optional_number(out, s->age_ms);
  out += '}';
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  bool plain = true;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') {
      plain = false;
      break;
    }
  }
  if (plain) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  // Escapes and UTF-8 checking: the codec's (bad bytes replaced).
  out += to_text(Json(std::string(s)));
}

void append_json_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  const std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

void append_json(std::string& out, const RunLog& r) {
  out += "{\"config\":";
  append_int(out, r.run.config);
  out += ",\"run\":";
  append_int(out, r.run.run);
  out += ",\"entered\":";
  append_strings(out, r.entered);
  out += ",\"failed\":";
  append_strings(out, r.failed);
  // Info collectors' values, in Options::info_collectors order (only with collectors).
  if (!r.info.empty()) {
    out += ",\"info\":";
    append_info(out, r.info);
  }
  if (!r.annotation_info.empty()) {
    out += ",\"annotation_info\":[";
    for (std::size_t i = 0; i < r.annotation_info.size(); ++i) {
      if (i) out += ',';
      out += "{\"annotation\":";
      append_json_string(out, r.annotation_info[i].annotation);
      out += ",\"info\":";
      append_info(out, r.annotation_info[i].values);
      out += '}';
    }
    out += ']';
  }
  out += '}';
}

void append_json(std::string& out, const KernelRecord& k) {
  out += "{\"annotation\":";
  append_json_string(out, k.annotation);
  out += ",\"kernel\":";
  append_json_string(out, k.kernel);
  out += ",\"mangled\":";
  append_json_string(out, k.mangled);
  out += ",\"config\":";
  append_int(out, k.run.config);
  out += ",\"run\":";
  append_int(out, k.run.run);
  out += ",\"device\":";
  append_int(out, k.device);
  out += ",\"sequence\":";
  append_int(out, k.sequence);
  out += ",\"metrics\":[";
  for (std::size_t i = 0; i < k.metrics.size(); ++i) {
    const auto& m = k.metrics[i];
    out += i ? ",[" : "[";
    append_json_string(out, m.metric);
    out += ',';
    append_json_number(out, m.value);
    out += ',';
    if (m.unit) {
      append_json_string(out, *m.unit);
    } else {
      out += "null";
    }
    out += ']';
  }
  out += ']';
  // GPU times and stream: only when the tool timed the kernel in process (later minor version).
  if (k.start_ns) {
    out += ",\"start_ns\":";
    append_int(out, *k.start_ns);
  }
  if (k.end_ns) {
    out += ",\"end_ns\":";
    append_int(out, *k.end_ns);
  }
  if (k.stream) {
    out += ",\"stream\":";
    append_int(out, *k.stream);
  }
  out += '}';
}

void append_json(std::string& out, const PhaseSpan& p) {
  out += "{\"phase\":";
  append_json_string(out, p.phase);
  if (p.config) {
    out += ",\"config\":";
    append_int(out, *p.config);
  }
  if (p.run) {
    out += ",\"run\":";
    append_int(out, *p.run);
  }
  if (p.warmup) out += ",\"warmup\":true";
  if (p.pass != 0) {
    out += ",\"pass\":";
    append_int(out, p.pass);
  }
  if (!p.annotation.empty()) {
    out += ",\"annotation\":";
    append_json_string(out, p.annotation);
  }
  out += ",\"start_ns\":";
  append_int(out, p.start_ns);
  out += ",\"end_ns\":";
  append_int(out, p.end_ns);
  out += '}';
}

namespace {

bool same_execution(const PhaseSpan& a, const PhaseSpan& b) {
  return a.config == b.config && a.run == b.run && a.warmup == b.warmup && a.pass == b.pass;
}

void lap_group_header(std::string& out, const PhaseSpan& first) {
  out += "{\"config\":";
  append_int(out, *first.config);
  out += ",\"run\":";
  append_int(out, *first.run);
  if (first.warmup) out += ",\"warmup\":true";
  if (first.pass != 0) {
    out += ",\"pass\":";
    append_int(out, first.pass);
  }
  out += ",\"start_ns\":";
  append_int(out, first.start_ns);
  out += ",\"laps\":[";
}

}  // namespace

void append_phases(std::string& laps, std::string& spans, const std::vector<PhaseSpan>& phases) {
  const PhaseSpan* previous = nullptr;  // the last lap of the group being written
  for (const auto& p : phases) {
    const bool lap = p.annotation.empty() && p.config && p.run;
    if (!lap) {
      if (!spans.empty()) spans += ',';
      append_json(spans, p);
      continue;
    }
    const bool continues = previous && same_execution(*previous, p) && previous->end_ns == p.start_ns;
    if (!continues) {
      if (previous) laps += "]}";
      if (!laps.empty()) laps += ',';
      lap_group_header(laps, p);
    } else {
      laps += ',';
    }
    laps += '[';
    append_json_string(laps, p.phase);
    laps += ',';
    append_int(laps, p.end_ns - p.start_ns);
    laps += ']';
    previous = &p;
  }
  if (previous) laps += "]}";
}

void append_json(std::string& out, const RunTelemetry& t) {
  out += "{\"config\":";
  append_int(out, t.config);
  out += ",\"run\":";
  append_int(out, t.run);
  out += ",\"device\":";
  append_int(out, t.device);
  out += ",\"before\":";
  append_sample(out, t.before);
  out += ",\"after\":";
  append_sample(out, t.after);
  out += ",\"cooling_wait_s\":";
  append_json_number(out, t.cooling_wait_s);
  out += '}';
}

}  // namespace kscope::report
