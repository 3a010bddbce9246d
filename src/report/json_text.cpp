#include "report/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <variant>

#include "report/json_codec.hpp"

namespace kscope::report {
namespace {

template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
void value(std::string& out, Int v) {
  append_json_integer(out, v);
}
void value(std::string& out, bool v) { out += v ? "true" : "false"; }
void value(std::string& out, double v) { append_json_number(out, v); }
void value(std::string& out, const std::string& v) { append_json_string(out, v); }
void value(std::string& out, const std::vector<std::string>& items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, items[i]);
  }
  out += ']';
}
void value(std::string& out, const std::vector<InfoValue>& values) { append_json(out, values); }
void value(std::string& out, const TelemetrySample& s);  // below: it writes fields
template <class T>
void value(std::string& out, const std::optional<T>& v) {
  if (v) {
    value(out, *v);
  } else {
    out += "null";
  }
}

// `"name":value` laid out by `layout`, opening the object for the first field, else after a
// comma.
template <class T>
void field(std::string& out, const Layout& layout, const char* name, const T& v, bool first = false) {
  out += first ? layout.first : layout.next;
  out += name;
  out += layout.colon;
  value(out, v);
}

template <class T>
void field(std::string& out, const char* name, const T& v, bool first = false) {
  field(out, Layout::compact(), name, v, first);
}

void value(std::string& out, const TelemetrySample& s) {
  field(out, "sm_clock_mhz", s.sm_clock_mhz, true);
  field(out, "memory_clock_mhz", s.memory_clock_mhz);
  field(out, "temperature_c", s.temperature_c);
  field(out, "headroom_c", s.headroom_c);
  field(out, "power_w", s.power_w);
  field(out, "clock_event_reasons", s.clock_event_reasons);
  field(out, "age_ms", s.age_ms);
  out += '}';
}

}  // namespace

void append_json(std::string& out, const std::vector<InfoValue>& values) {
  Json a = Json::array();
  for (const auto& v : values) a.push_back(to_json(v));
  out += to_text(a);
}

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
  if (std::signbit(x)) out += '-';
  if (x == 0) {
    out += "0.0";
    return;
  }
  // The shortest digits that read back as x, laid out as nlohmann's dump lays them out (so the
  // streamed result is the tree's text): d.ddd * 10^exponent, the digits placed in full when
  // the point falls within 15 of them or 4 before them, else in e-notation.
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(x), std::chars_format::scientific);
  const std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
  const std::size_t e = text.find('e');
  char digits[24];
  int k = 1;
  digits[0] = text[0];
  for (std::size_t i = 2; i < e; ++i) digits[k++] = text[i];
  int exponent = 0;
  std::from_chars(text.data() + e + 2, text.data() + text.size(), exponent);
  if (text[e + 1] == '-') exponent = -exponent;
  const auto span = [&](int from, int to) {
    out.append(digits + from, static_cast<std::size_t>(to - from));
  };
  const int n = exponent + 1;  // where the point goes, counted from the first digit
  if (k <= n && n <= 15) {
    span(0, k);
    out.append(static_cast<std::size_t>(n - k), '0');
    out += ".0";
  } else if (0 < n && n <= 15) {
    span(0, n);
    out += '.';
    span(n, k);
  } else if (-4 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    span(0, k);
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      span(1, k);
    }
    out += exponent < 0 ? "e-" : "e+";
    const int magnitude = std::abs(exponent);
    if (magnitude < 10) out += '0';
    value(out, magnitude);
  }
}

void append_tree_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[32];
  out.append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, x));
}

void append_json(std::string& out, const RunLog& r) {
  field(out, "config", r.run.config, true);
  field(out, "run", r.run.run);
  field(out, "entered", r.entered);
  field(out, "failed", r.failed);
  // Info collectors' values, in Options::info_collectors order (only with collectors).
  if (!r.info.empty()) field(out, "info", r.info);
  if (!r.annotation_info.empty()) {
    out += ",\"annotation_info\":[";
    for (std::size_t i = 0; i < r.annotation_info.size(); ++i) {
      if (i) out += ',';
      field(out, "annotation", r.annotation_info[i].annotation, true);
      field(out, "info", r.annotation_info[i].values);
      out += '}';
    }
    out += ']';
  }
  out += '}';
}

void append_json(std::string& out, const KernelRecord& k) {
  field(out, "annotation", k.annotation, true);
  field(out, "kernel", k.kernel);
  field(out, "mangled", k.mangled);
  field(out, "config", k.run.config);
  field(out, "run", k.run.run);
  field(out, "device", k.device);
  field(out, "sequence", k.sequence);
  out += ",\"metrics\":[";
  for (std::size_t i = 0; i < k.metrics.size(); ++i) {
    const auto& m = k.metrics[i];
    out += i ? ",[" : "[";
    append_json_string(out, m.metric);
    out += ',';
    append_json_number(out, m.value);
    out += ',';
    value(out, m.unit);
    out += ']';
  }
  out += ']';
  // GPU times and stream: only when the tool timed the kernel in process (later minor version).
  if (k.start_ns) field(out, "start_ns", *k.start_ns);
  if (k.end_ns) field(out, "end_ns", *k.end_ns);
  if (k.stream) field(out, "stream", *k.stream);
  out += '}';
}

void append_json(std::string& out, const PhaseSpan& p, const Layout& l) {
  field(out, l, "phase", p.phase, true);
  if (p.config) field(out, l, "config", *p.config);
  if (p.run) field(out, l, "run", *p.run);
  if (p.warmup) field(out, l, "warmup", true);
  if (p.pass != 0) field(out, l, "pass", p.pass);
  if (!p.annotation.empty()) field(out, l, "annotation", p.annotation);
  field(out, l, "start_ns", p.start_ns);
  field(out, l, "end_ns", p.end_ns);
  if (p.part != 0) field(out, l, "part", p.part);
  out += l.close;
}

void append_json(std::string& out, const Value& v) {
  std::visit([&](const auto& x) { value(out, x); }, v.storage());
}

void append_json(std::string& out, const KernelSpan& k, const Layout& l) {
  field(out, l, "annotation", k.annotation, true);
  field(out, l, "kernel", k.kernel);
  field(out, l, "config", k.config);
  field(out, l, "run", k.run);
  field(out, l, "device", k.device);
  if (k.warmup) field(out, l, "warmup", true);
  field(out, l, "stream", k.stream);
  field(out, l, "start_ns", k.start_ns);
  field(out, l, "end_ns", k.end_ns);
  if (k.part != 0) field(out, l, "part", k.part);
  out += l.close;
}

void append_info(std::string& out, const std::vector<InfoValue>& values,
                 const std::vector<std::string>& names) {
  if (names.empty()) {
    out += "{}";
    return;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += i ? ',' : '{';
    append_json_string(out, names[i]);
    out += ':';
    if (i < values.size()) {
      out += to_text(to_json(values[i]));
    } else {
      out += "null";
    }
  }
  out += '}';
}

bool after_info(const ProcessedColumn& column) { return column.json == ColumnJson::kWhenSet; }

namespace {

// The members of an object laid out by `layout`, each opened by name().
struct Members {
  std::string& out;
  const Layout& layout;
  bool first = true;
  void name(const char* key) {
    out += first ? layout.first : layout.next;
    first = false;
    out += key;
    out += layout.colon;
  }
};

// One processed column of `p` (nothing for the columns JSON rows do not carry).
void column(Members& m, const ProcessedColumn& c, const ProcessedRow& p) {
  if (c.json == ColumnJson::kNever) return;
  const bool when_set = c.json == ColumnJson::kWhenSet;
  std::string& out = m.out;
  std::visit(
      [&](const auto& f) {
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, ParameterColumns>) {
          m.name("config");
          value(out, p.config);
        } else if constexpr (std::is_same_v<F, InfoColumns> ||
                             std::is_same_v<F, std::string Metadata::*> ||
                             std::is_same_v<F, long long Metadata::*>) {
          // not per row
        } else if constexpr (std::is_same_v<F, std::string ProcessedRow::*>) {
          if (!when_set || !(p.*f).empty()) {
            m.name(c.name);
            value(out, p.*f);
          }
        } else if constexpr (std::is_same_v<F, std::size_t ProcessedRow::*>) {
          m.name(c.name);
          value(out, p.*f);
        } else if constexpr (std::is_same_v<F, double ProcessedRow::*> ||
                             std::is_same_v<F, std::optional<double> ProcessedRow::*>) {
          m.name(c.name);
          const std::optional<double> x = p.*f;
          append_tree_number(out, x ? *x : std::numeric_limits<double>::quiet_NaN());
        } else {  // optional text or flag
          if (p.*f) {
            m.name(c.name);
            value(out, *(p.*f));
          } else if (!when_set) {
            m.name(c.name);
            out += c.missing == ColumnMissing::kFalse ? "false" : "null";
          }
        }
      },
      c.field);
}

}  // namespace

Layout::Layout(std::size_t depth)
    : first("{\n" + std::string(depth + 1, ' ') + "\""),
      next(",\n" + std::string(depth + 1, ' ') + "\""),
      colon("\": "),
      close("\n" + std::string(depth, ' ') + "}") {}

Layout::Layout(std::string first_, std::string next_, std::string colon_, std::string close_)
    : first(std::move(first_)), next(std::move(next_)), colon(std::move(colon_)),
      close(std::move(close_)) {}

const Layout& Layout::compact() {
  static const Layout kCompact("{\"", ",\"", "\":", "}");
  return kCompact;
}

void append_json(std::string& out, const ProcessedRow& p, const std::vector<std::string>& info_names,
                 const Layout& layout) {
  Members m{out, layout};
  const auto& columns = processed_columns();
  for (const auto& c : columns) {
    if (!after_info(c)) column(m, c, p);
  }
  if (!info_names.empty()) {
    m.name("info");
    append_info(out, p.info, info_names);
  }
  for (const auto& c : columns) {
    if (after_info(c)) column(m, c, p);
  }
  out += m.first ? "{}" : layout.close;
}

void append_json(std::string& out, const RawRow& r, const std::vector<std::string>& info_names,
                 const Layout& l) {
  field(out, l, "Annotation", r.annotation, true);
  field(out, l, "Value", r.value);
  field(out, l, "Metric", r.metric);
  field(out, l, "Kernel", r.kernel);
  field(out, l, "Unit", r.unit);
  field(out, l, "config", r.config);
  field(out, l, "run", r.run);
  if (!info_names.empty()) {
    out += l.next;
    out += "info";
    out += l.colon;
    append_info(out, r.info, info_names);
  }
  out += l.close;
}

void append_config(std::string& out, const Config& c, std::size_t index,
                   const std::string* values) {
  field(out, "index", index, true);
  field(out, "label", c.label());
  out += ",\"values\":";
  if (values) {
    out += *values;
  } else {
    out += '[';
    for (std::size_t i = 0; i < c.values().size(); ++i) {
      if (i) out += ',';
      append_json(out, c.values()[i]);
    }
    out += ']';
  }
  out += '}';
}

void append_json(std::string& out, const RunTelemetry& t) {
  field(out, "config", t.config, true);
  field(out, "run", t.run);
  field(out, "device", t.device);
  field(out, "before", t.before);
  field(out, "after", t.after);
  field(out, "cooling_wait_s", t.cooling_wait_s);
  out += '}';
}

}  // namespace kscope::report
