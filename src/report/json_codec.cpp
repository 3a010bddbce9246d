#include "report/json_codec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include "core/option_table.hpp"
#include "core/processed_columns.hpp"
#include "core/tool_checks.hpp"
#include "kscope/errors.hpp"
#include "report/json_field.hpp"
#include "report/json_text.hpp"

namespace kscope::report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Json number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }
template <class F>
double number_from(const F& j) { return j.template get<double>(); }

template <class F>
std::optional<std::string> optional_string_from(const F& j) {
  if (j.is_null()) return std::nullopt;
  return j.template get<std::string>();
}

// The journal's types are encoded once, as text (json_text.hpp); their trees parse it.
template <class T>
Json text_to_json(const T& item) {
  std::string text;
  append_json(text, item);
  return Json::parse(text);
}

template <class T>
Json optional_json(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}
template <class F>
CollectionScope scope_of(const F& j) {
  const auto scope = scope_from_name(j.template get<std::string>());
  if (!scope) j.fail("an info collector scope: \"once\", \"config\", \"run\" or \"annotation\"");
  return *scope;
}

}  // namespace

std::string to_text(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Json to_json(const Value& v) {
  return std::visit([](const auto& x) -> Json {
    using T = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<T, double>) {
      return number(x);
    } else {
      return Json(x);
    }
  }, v.storage());
}

template <class F>
Value value_from_json(const F& field) {
  // Every JSON value is a valid config value: nothing here can fail.
  if (field.is_boolean()) return Value(field.template get<bool>());
  if (const auto n = field.number()) {
    switch (n->kind) {
      case JsonNumber::Kind::kUnsigned:
        if (n->u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          return Value(n->as_double());  // beyond int64 (2**64 from Python): kept as a number
        }
        return Value(static_cast<std::int64_t>(n->u));
      case JsonNumber::Kind::kInteger:
        return Value(n->i);
      case JsonNumber::Kind::kFloat:
        return Value(n->d);
    }
  }
  if (field.is_string()) return Value(field.template get<std::string>());
  if (field.is_null()) return Value(kNaN);
  return Value(to_text(field.tree()));  // lists/dicts written by Python: kept as their JSON text
}

namespace {

// One option's JSON value, by its C++ type; callbacks are stored as whether they are set.
template <class T>
Json option_json(const OptionSpec& spec, const T& v) {
  if constexpr (std::is_same_v<T, std::optional<int>> || std::is_same_v<T, std::optional<bool>>) {
    return optional_json(v);
  } else if constexpr (std::is_same_v<T, Verbosity>) {
    return static_cast<int>(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return spec.empty_is_null && v.empty() ? Json(nullptr) : Json(v);
  } else if constexpr (std::is_same_v<T, std::vector<InfoCollector>>) {
    Json collectors = Json::array();
    for (const auto& c : v) collectors.push_back(Json{{"name", c.name}, {"scope", scope_name(c.scope)}});
    return collectors;
  } else if constexpr (IsOptionCallback<T>::value) {
    return static_cast<bool>(v);
  } else {
    return v;  // int, double, bool, a list of texts
  }
}

// Reads one option from its key in `j`; a missing key keeps the value. Callbacks are code and
// are not read back.
template <class F, class T>
void read_option(const F& j, const OptionSpec& spec, T& v) {
  if constexpr (std::is_same_v<T, std::optional<int>>) {
    if (j.contains(spec.name)) v = j.template optional<int>(spec.name);
  } else if constexpr (std::is_same_v<T, Verbosity>) {
    if (const auto f = j.find(spec.name)) {
      const int level = f->template get<int>();
      if (level < static_cast<int>(Verbosity::kSilent) || level > static_cast<int>(Verbosity::kDebug)) {
        f->fail("a verbosity from 0 to 4");
      }
      v = static_cast<Verbosity>(level);
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = j.value(spec.name, spec.empty_is_null ? std::string() : v);
  } else if constexpr (std::is_same_v<T, std::vector<InfoCollector>>) {
    // Info collectors come back by name and scope; their callbacks are not stored.
    if (const auto collectors = j.find(spec.name)) {
      v.clear();
      for (const auto& c : collectors->items()) {
        v.push_back({c.at("name").template get<std::string>(), scope_of(c.at("scope")), {}});
      }
    }
  } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, double> ||
                       std::is_same_v<T, bool> || std::is_same_v<T, std::vector<std::string>>) {
    v = j.value(spec.name, v);
  }
}

}  // namespace

// The stored options (option_table.hpp), in the table's order; info_collectors only when set.
Json to_json(const Options& o) {
  Json j = Json::object();
  for (const auto& spec : option_table()) {
    if (spec.record == OptionRecord::kNotStored) continue;
    std::visit(
        [&](const auto& field) {
          const auto& value = field.of(o);
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::vector<InfoCollector>>) {
            if (value.empty()) return;
          }
          j[spec.name] = option_json(spec, value);
        },
        spec.field);
  }
  return j;
}

template <class F>
void options_from_json(const F& j, Options* o) {
  for (const auto& spec : option_table()) {
    if (spec.record == OptionRecord::kNotStored) continue;
    std::visit([&](const auto& field) { read_option(j, spec, field.of(*o)); }, spec.field);
  }
}

namespace {

template <class F>
std::vector<InfoValue> info_from_json(const F& row, const std::vector<std::string>& names) {
  std::vector<InfoValue> out;
  if (names.empty()) return out;
  const auto info = row.find("info");
  for (const auto& name : names) {
    const auto value = info ? info->find(name.c_str()) : std::nullopt;
    out.push_back(value ? info_value_from_json(*value) : InfoValue());
  }
  return out;
}

}  // namespace

Json to_json(const InfoValue& v) {
  if (v.is_number()) return number(v.number());
  if (v.is_string()) return Json(v.text());
  return Json(nullptr);
}

template <class F>
InfoValue info_value_from_json(const F& field) {
  if (const auto n = field.number()) return InfoValue(n->as_double());
  if (field.is_string()) return InfoValue(field.template get<std::string>());
  if (!field.is_null()) field.fail("a number, a string or null");
  return {};
}

Json info_columns_to_json(const std::vector<InfoColumn>& columns) {
  Json out = Json::array();
  for (const auto& c : columns) {
    out.push_back(Json{{"name", c.name}, {"scope", scope_name(c.scope)}, {"aggregated", c.aggregated}});
  }
  return out;
}

template <class F>
std::vector<InfoColumn> info_columns_from_json(const F& j) {
  std::vector<InfoColumn> out;
  for (const auto& c : j.items()) {
    out.push_back({c.at("name").template get<std::string>(), scope_of(c.at("scope")),
                   c.value("aggregated", false)});
  }
  return out;
}

Json to_json(const Metadata& m) {
  Json j{{"gpu", m.gpu},
         {"device", m.device},
         {"pci_bus_id", m.pci_bus_id},
         {"uuid", m.uuid},
         {"compute_capability", m.compute_capability},
         {"sm_count", m.sm_count},
         {"l2_cache_bytes", m.l2_cache_bytes},
         {"compute_clock_khz", m.compute_clock},
         {"memory_clock_khz", m.memory_clock},
         {"driver_version", m.driver_version},
         {"runtime_version", m.runtime_version},
         {"host", m.host},
         {"kscope_version", m.kscope_version},
         {"tool", m.tool},
         {"tool_version", m.tool_version},
         {"started_at", m.started_at},
         {"wall_seconds", m.wall_seconds},
         {"shard_index", m.shard_index},
         {"shard_count", m.shard_count}};
  // Written when known, so that results measuring no duration read as before.
  if (!m.duration_definition.empty()) j["duration_definition"] = m.duration_definition;
  return j;
}

template <class F>
Metadata metadata_from_json(const F& j) {
  Metadata m;
  m.gpu = j.value("gpu", m.gpu);
  m.device = j.value("device", m.device);
  m.pci_bus_id = j.value("pci_bus_id", m.pci_bus_id);
  m.uuid = j.value("uuid", m.uuid);
  m.shard_index = j.value("shard_index", m.shard_index);
  m.shard_count = j.value("shard_count", m.shard_count);
  m.compute_capability = j.value("compute_capability", m.compute_capability);
  m.sm_count = j.value("sm_count", m.sm_count);
  m.l2_cache_bytes = j.value("l2_cache_bytes", m.l2_cache_bytes);
  m.compute_clock = j.value("compute_clock_khz", m.compute_clock);
  m.memory_clock = j.value("memory_clock_khz", m.memory_clock);
  m.driver_version = j.value("driver_version", m.driver_version);
  m.runtime_version = j.value("runtime_version", m.runtime_version);
  m.host = j.value("host", m.host);
  m.kscope_version = j.value("kscope_version", m.kscope_version);
  m.tool = j.value("tool", m.tool);
  m.tool_version = j.value("tool_version", m.tool_version);
  m.duration_definition = j.value("duration_definition", m.duration_definition);
  m.started_at = j.value("started_at", m.started_at);
  m.wall_seconds = j.value("wall_seconds", m.wall_seconds);
  return m;
}

Json configs_to_json(const std::vector<Config>& configs) {
  std::string text = "[";
  for (std::size_t i = 0; i < configs.size(); ++i) {
    if (i) text += ',';
    append_config(text, configs[i], i);
  }
  return Json::parse(text + "]");
}

template <class F>
Config config_from_json(const F& c, const std::vector<std::string>& parameters, std::size_t index) {
  std::vector<Value> values;
  for (const auto& v : c.at("values").items()) values.push_back(value_from_json(v));
  if (values.size() != parameters.size()) {
    c.at("values").fail(parameters.empty()
                            ? std::string("no values, as the header's \"parameters\" is empty "
                                          "or missing")
                            : "an array of " + std::to_string(parameters.size()) +
                                  " values (one per parameter)");
  }
  Config config(std::move(values), parameters);
  config.set_index(index);
  return config;
}

template <class F>
std::vector<Config> configs_from_json(const F& j, const std::vector<std::string>& parameters) {
  std::vector<Config> out;
  for (const auto& c : j.items()) out.push_back(config_from_json(c, parameters, out.size()));
  return out;
}

Json to_json(const RawRow& r, const std::vector<std::string>& info_names) {
  std::string text;
  append_json(text, r, info_names);
  return Json::parse(text);
}

template <class F>
RawRow raw_row_from_json(const F& j, const std::vector<std::string>& info_names) {
  RawRow r;
  r.annotation = j.at("Annotation").template get<std::string>();
  r.value = number_from(j.at("Value"));
  r.metric = j.at("Metric").template get<std::string>();
  r.kernel = j.value("Kernel", std::string());
  r.unit = j.template optional<std::string>("Unit");
  r.config = j.at("config").template get<std::size_t>();
  r.run = j.at("run").template get<std::size_t>();
  r.info = info_from_json(j, info_names);
  return r;
}

namespace {

// One processed column of a JSON row into `p`; files cut short or edited fail with the key's
// path.
template <class F>
void column_from_json(const ProcessedColumn& c, const F& j, ProcessedRow* p) {
  if (c.json == ColumnJson::kNever) return;
  const bool required = c.json == ColumnJson::kRequired;
  std::visit(
      [&](const auto& field) {
        using C = std::decay_t<decltype(field)>;
        (void)field;  // the groups and the metadata have no member of the row
        if constexpr (std::is_same_v<C, ParameterColumns>) {
          p->config = j.at("config").template get<std::size_t>();
        } else if constexpr (std::is_same_v<C, InfoColumns> ||
                             std::is_same_v<C, std::string Metadata::*> ||
                             std::is_same_v<C, long long Metadata::*>) {
        } else if constexpr (std::is_same_v<C, std::string ProcessedRow::*>) {
          p->*field = required ? j.at(c.name).template get<std::string>() : j.value(c.name, std::string());
        } else if constexpr (std::is_same_v<C, double ProcessedRow::*>) {
          p->*field = required ? number_from(j.at(c.name)) : j.value(c.name, kNaN);
        } else if constexpr (std::is_same_v<C, std::size_t ProcessedRow::*>) {
          p->*field = j.at(c.name).template get<std::size_t>();
        } else if constexpr (std::is_same_v<C, std::optional<double> ProcessedRow::*>) {
          // The baseline's value, read for a normalised row (NormalizationValue).
          if (p->normalized) p->*field = j.value(c.name, kNaN);
        } else if constexpr (std::is_same_v<C, std::optional<bool> ProcessedRow::*>) {
          const auto flag = j.at(c.name);
          if (!flag.is_null()) p->*field = flag.template get<bool>();
        } else if (c.missing == ColumnMissing::kFalse) {  // text, or false (Normalized)
          const auto text = j.at(c.name);
          if (text.is_string()) {
            p->*field = text.template get<std::string>();
          } else if (!text.is_boolean()) {
            text.fail("the annotation normalized against, or false");
          }
        } else {
          p->*field = j.template optional<std::string>(c.name);
        }
      },
      c.field);
}

}  // namespace

Json to_json(const ProcessedRow& p, const std::vector<std::string>& info_names) {
  std::string text;
  append_json(text, p, info_names);
  return Json::parse(text);
}

template <class F>
ProcessedRow processed_row_from_json(const F& j,
                                     const std::vector<std::string>& info_names) {
  ProcessedRow p;
  const auto& columns = processed_columns();
  for (const auto& c : columns) {
    if (!after_info(c)) column_from_json(c, j, &p);
  }
  p.info = info_from_json(j, info_names);
  for (const auto& c : columns) {
    if (after_info(c)) column_from_json(c, j, &p);
  }
  return p;
}

bool names_a_checking_tool(const Results::Data& d) {
  return tool_checks(d.metadata.tool.empty() ? d.options.tool : d.metadata.tool);
}

Json to_json(const RunLog& r) { return text_to_json(r); }

template <class F>
void check_entered_once(const F& at, const std::vector<std::string>& entered) {
  for (std::size_t i = 0; i < entered.size(); ++i) {
    if (std::find(entered.begin(), entered.begin() + i, entered[i]) != entered.begin() + i) {
      throw FileFormatError("at " + at.path() + ": annotation \"" + entered[i] +
                            "\" is listed twice (a run enters each annotation at most once)");
    }
  }
}

template <class F>
RunLog run_log_from_json(const F& j) {
  RunLog r;
  r.run.config = j.at("config").template get<std::size_t>();
  r.run.run = j.at("run").template get<std::size_t>();
  const auto entered = j.at("entered");
  r.entered = entered.template get<std::vector<std::string>>();
  check_entered_once(entered, r.entered);
  r.failed = j.at("failed").template get<std::vector<std::string>>();
  if (const auto info = j.find("info")) {
    for (const auto& v : info->items()) r.info.push_back(info_value_from_json(v));
  }
  if (const auto entries = j.find("annotation_info")) {
    for (const auto& a : entries->items()) {
      AnnotationInfo entry{a.at("annotation").template get<std::string>(), {}};
      for (const auto& v : a.at("info").items()) entry.values.push_back(info_value_from_json(v));
      r.annotation_info.push_back(std::move(entry));
    }
  }
  return r;
}

Json to_json(const KernelRecord& k) { return text_to_json(k); }

template <class F>
KernelRecord kernel_record_from_json(const F& j) {
  KernelRecord k;
  k.annotation = j.at("annotation").template get<std::string>();
  k.kernel = j.at("kernel").template get<std::string>();
  k.mangled = j.value("mangled", std::string());
  k.run.config = j.at("config").template get<std::size_t>();
  k.run.run = j.at("run").template get<std::size_t>();
  k.device = j.value("device", 0);
  k.sequence = j.value("sequence", std::uint64_t{0});
  for (const auto& m : j.at("metrics").items()) {
    k.metrics.push_back({m.element(0).template get<std::string>(), number_from(m.element(1)),
                         optional_string_from(m.element(2))});
  }
  k.start_ns = j.template optional<std::int64_t>("start_ns");
  k.end_ns = j.template optional<std::int64_t>("end_ns");
  k.stream = j.template optional<std::uint32_t>("stream");
  return k;
}

Json to_json(const PhaseSpan& p) { return text_to_json(p); }

template <class F>
PhaseSpan phase_span_from_json(const F& j) {
  PhaseSpan p;
  p.phase = j.at("phase").template get<std::string>();
  p.config = j.template optional<std::size_t>("config");
  p.run = j.template optional<std::size_t>("run");
  p.warmup = j.value("warmup", false);
  p.pass = j.value("pass", 0);
  p.annotation = j.value("annotation", std::string());
  p.start_ns = j.at("start_ns").template get<std::int64_t>();
  p.end_ns = j.at("end_ns").template get<std::int64_t>();
  if (p.end_ns < p.start_ns) j.at("end_ns").fail("an end_ns not before start_ns");
  p.part = j.value("part", std::size_t{0});
  return p;
}

Json phases_to_json(const PhaseSpans& phases) {
  return Json::parse(json_array_text(phases));
}

template <class F>
std::vector<PhaseSpan> phases_from_json(const F& j) {
  const auto items = j.items();
  std::vector<PhaseSpan> out;
  out.reserve(items.size());
  for (const auto& p : items) out.push_back(phase_span_from_json(p));
  return out;
}

template <class F>
std::vector<PhaseSpan> phase_laps_from_json(const F& j) {
  std::vector<PhaseSpan> out;
  for (const auto& group : j.items()) {
    PhaseSpan p;
    p.config = group.at("config").template get<std::size_t>();
    p.run = group.at("run").template get<std::size_t>();
    p.warmup = group.value("warmup", false);
    p.pass = group.value("pass", 0);
    std::int64_t at = group.at("start_ns").template get<std::int64_t>();
    for (const auto& lap : group.at("laps").items()) {
      p.phase = lap.element(0).template get<std::string>();
      const auto duration = lap.element(1).template get<std::int64_t>();
      if (duration < 0) lap.element(1).fail("a duration not below 0");
      p.start_ns = at;
      p.end_ns = at + duration;
      at = p.end_ns;
      out.push_back(p);
    }
  }
  return out;
}

Json to_json(const KernelSpan& k) { return text_to_json(k); }

template <class F>
KernelSpan kernel_span_from_json(const F& j) {
  KernelSpan k;
  k.annotation = j.at("annotation").template get<std::string>();
  k.kernel = j.at("kernel").template get<std::string>();
  k.config = j.at("config").template get<std::size_t>();
  k.run = j.at("run").template get<std::size_t>();
  k.device = j.value("device", 0);
  k.warmup = j.value("warmup", false);
  k.stream = j.template optional<std::uint32_t>("stream");
  k.start_ns = j.at("start_ns").template get<std::int64_t>();
  k.end_ns = j.at("end_ns").template get<std::int64_t>();
  if (k.end_ns < k.start_ns) j.at("end_ns").fail("an end_ns not before start_ns");
  k.part = j.value("part", std::size_t{0});
  return k;
}

Json to_json(const Timeline& t) {
  Json kernels = Json::array();
  for (const auto& k : t.kernels) kernels.push_back(to_json(k));
  Json j{{"phases", phases_to_json(t.phases)}, {"kernels", kernels}};
  if (!t.parts.empty()) j["parts"] = t.parts;
  return j;
}

template <class F>
Timeline timeline_from_json(const F& j) {
  Timeline t;
  if (const auto parts = j.find("parts")) {
    for (const auto& p : parts->items()) t.parts.push_back(p.template get<std::string>());
  }
  // A span's part indexes "parts"; one process's timeline has none, and every span is its.
  const std::size_t parts = std::max<std::size_t>(t.parts.size(), 1);
  auto check_part = [&](const auto& span, std::size_t part) {
    if (part >= parts) {
      span.at("part").fail("a part below " + std::to_string(parts) + " (the timeline's parts)");
    }
  };
  const auto phases = j.at("phases");
  const std::vector<PhaseSpan> spans = phases_from_json(phases);
  t.phases = PhaseSpans(spans.begin(), spans.end());
  for (std::size_t i = 0; i < t.phases.size(); ++i) check_part(phases.element(i), t.phases[i].part);
  const auto kernels = j.at("kernels").items();
  t.kernels.reserve(kernels.size());
  for (const auto& k : kernels) {
    t.kernels.push_back(kernel_span_from_json(k));
    check_part(k, t.kernels.back().part);
  }
  return t;
}

template <class F>
TelemetrySample telemetry_sample_from_json(const F& j) {
  TelemetrySample t;
  t.sm_clock_mhz = j.template optional<int>("sm_clock_mhz");
  t.memory_clock_mhz = j.template optional<int>("memory_clock_mhz");
  t.temperature_c = j.template optional<int>("temperature_c");
  t.headroom_c = j.template optional<int>("headroom_c");
  t.power_w = j.template optional<double>("power_w");
  t.clock_event_reasons = j.template optional<std::uint64_t>("clock_event_reasons");
  t.age_ms = j.template optional<double>("age_ms");
  return t;
}

Json to_json(const RunTelemetry& t) { return text_to_json(t); }

template <class F>
RunTelemetry run_telemetry_from_json(const F& j) {
  RunTelemetry t;
  t.config = j.at("config").template get<std::size_t>();
  t.run = j.at("run").template get<std::size_t>();
  t.device = j.value("device", 0);
  if (const auto before = j.find("before")) t.before = telemetry_sample_from_json(*before);
  if (const auto after = j.find("after")) t.after = telemetry_sample_from_json(*after);
  t.cooling_wait_s = j.value("cooling_wait_s", 0.0);
  return t;
}

Json telemetry_to_json(const std::vector<RunTelemetry>& telemetry) {
  return Json::parse(json_array_text(telemetry));
}

template <class F>
std::vector<RunTelemetry> telemetry_from_json(const F& j) {
  std::vector<RunTelemetry> out;
  for (const auto& t : j.items()) out.push_back(run_telemetry_from_json(t));
  return out;
}

namespace {

Json dim3_json(const std::optional<Dim3>& d) {
  return d ? Json::array({d->x, d->y, d->z}) : Json(nullptr);
}

template <class F>
std::optional<Dim3> dim3_from(const F& j, const char* key) {
  const auto d = j.find(key);
  if (!d) return std::nullopt;
  return Dim3{d->element(0).template get<std::uint32_t>(), d->element(1).template get<std::uint32_t>(),
              d->element(2).template get<std::uint32_t>()};
}

}  // namespace

Json to_json(const Finding& f) {
  return Json{{"check", f.check},
              {"kind", f.kind},
              {"category", f.category},
              {"severity", f.severity},
              {"kernel", f.kernel},
              {"function", f.function},
              {"pc", optional_json(f.pc)},
              {"block", dim3_json(f.block)},
              {"thread", dim3_json(f.thread)},
              {"address", optional_json(f.address)},
              {"size", optional_json(f.size)},
              {"file", f.file},
              {"line", optional_json(f.line)},
              {"detail", f.detail},
              {"count", f.count},
              {"host_stack", f.host_stack},
              {"annotation", f.annotation},
              {"config", optional_json(f.config)},
              {"run", optional_json(f.run)},
              {"attribution", f.attribution}};
}

template <class F>
Finding finding_from_json(const F& j) {
  Finding f;
  f.check = j.at("check").template get<std::string>();
  f.kind = j.value("kind", std::string());
  f.category = j.value("category", std::string());
  f.severity = j.value("severity", std::string());
  f.kernel = j.value("kernel", std::string());
  f.function = j.value("function", std::string());
  f.pc = j.template optional<std::uint64_t>("pc");
  f.block = dim3_from(j, "block");
  f.thread = dim3_from(j, "thread");
  f.address = j.template optional<std::uint64_t>("address");
  f.size = j.template optional<std::uint64_t>("size");
  f.file = j.value("file", std::string());
  f.line = j.template optional<int>("line");
  f.detail = j.value("detail", std::string());
  f.count = j.value("count", std::size_t{1});
  f.host_stack = j.value("host_stack", std::vector<std::string>());
  f.annotation = j.value("annotation", std::string());
  f.config = j.template optional<std::size_t>("config");
  f.run = j.template optional<std::size_t>("run");
  f.attribution = j.value("attribution", std::string());
  return f;
}

Json findings_to_json(const std::vector<Finding>& findings) {
  Json out = Json::array();
  for (const auto& f : findings) out.push_back(to_json(f));
  return out;
}

template <class F>
std::vector<Finding> findings_from_json(const F& j) {
  std::vector<Finding> out;
  for (const auto& f : j.items()) out.push_back(finding_from_json(f));
  return out;
}

Json to_json(const ConfigFailure& f) {
  return Json{{"config", f.config},
              {"run", f.run},
              {"warmup", f.warmup},
              {"type", f.type},
              {"message", f.message}};
}

template <class F>
ConfigFailure config_failure_from_json(const F& j) {
  ConfigFailure f;
  f.config = j.at("config").template get<std::size_t>();
  f.run = j.value("run", std::size_t{0});
  f.warmup = j.value("warmup", false);
  f.type = j.at("type").template get<std::string>();
  f.message = j.value("message", std::string());
  return f;
}

Json failures_to_json(const std::vector<ConfigFailure>& failures) {
  Json out = Json::array();
  for (const auto& f : failures) out.push_back(to_json(f));
  return out;
}

template <class F>
std::vector<ConfigFailure> failures_from_json(const F& j, std::size_t configs) {
  std::vector<ConfigFailure> out;
  for (const auto& f : j.items()) append_checked(f, config_failure_from_json(f), &out, configs);
  return out;
}

template <class F>
void check_config_index(const F& row, std::size_t config, std::size_t count) {
  if (config >= count) {
    row.at("config").fail("a config index below " + std::to_string(count) +
                          " (the number of configs in the header)");
  }
}

Json header_json(const Results::Data& d, const char* kind, const Json& after_id) {
  Json j = header_json_before_configs(d, kind, after_id);
  j["configs"] = configs_to_json(d.configs);
  return j;
}

Json header_json_before_configs(const Results::Data& d, const char* kind, const Json& after_id) {
  Json j{{"schema_version", kSchemaVersion}, {"kind", kind}, {"name", d.name}, {"id", d.id}};
  for (const auto& [key, value] : after_id.items()) j[key] = value;
  j["options"] = to_json(d.options);
  j["metadata"] = to_json(d.metadata);
  j["parameters"] = d.parameters;
  return j;
}

template <class F>
int header_before_configs_from_json(const F& j, Results::Data* d, const char* newest) {
  const auto version_field = j.at("schema_version");
  const std::string version = version_field.template get<std::string>();
  const std::string major = version.substr(0, version.find('.'));
  const int newest_major = newest[0] - '0';
  if (major.size() != 1 || major[0] < '1' || major[0] - '0' > newest_major) {
    version_field.fail(std::string("a schema_version this kscope reads (") +
                       (newest_major > 1 ? "1.0 to " : "") + newest + ")");
  }
  d->name = j.at("name").template get<std::string>();
  d->id = j.value("id", 0);
  if (const auto options = j.find("options")) options_from_json(*options, &d->options);
  if (const auto metadata = j.find("metadata")) d->metadata = metadata_from_json(*metadata);
  d->parameters = j.value("parameters", std::vector<std::string>{});
  return major[0] - '0';
}

template <class F>
int header_from_json(const F& j, Results::Data* d, const char* newest) {
  const int major = header_before_configs_from_json(j, d, newest);
  d->configs = configs_from_json(j.at("configs"), d->parameters);
  return major;
}

Json to_json(const ConfigStop& s) {
  return Json{{"config", s.config}, {"runs", s.runs}, {"reason", s.reason},
              {"rel_ci", number(s.rel_ci)}, {"seconds", number(s.seconds)}};
}

template <class F>
ConfigStop config_stop_from_json(const F& j) {
  ConfigStop s;
  s.config = j.at("config").template get<std::size_t>();
  s.runs = j.at("runs").template get<std::size_t>();
  s.reason = j.at("reason").template get<std::string>();
  s.rel_ci = j.value("rel_ci", kNaN);
  s.seconds = j.value("seconds", 0.0);
  return s;
}

// Every reader, for both kinds of field.
#define KSCOPE_READERS(F)                                                                     \
  template Value value_from_json(const F&);                                                   \
  template void options_from_json(const F&, Options*);                                        \
  template Metadata metadata_from_json(const F&);                                             \
  template Config config_from_json(const F&, const std::vector<std::string>&, std::size_t);   \
  template std::vector<Config> configs_from_json(const F&, const std::vector<std::string>&);  \
  template RawRow raw_row_from_json(const F&, const std::vector<std::string>&);               \
  template ProcessedRow processed_row_from_json(const F&, const std::vector<std::string>&);   \
  template InfoValue info_value_from_json(const F&);                                          \
  template std::vector<InfoColumn> info_columns_from_json(const F&);                          \
  template RunLog run_log_from_json(const F&);                                                \
  template void check_entered_once(const F&, const std::vector<std::string>&);                \
  template KernelRecord kernel_record_from_json(const F&);                                    \
  template PhaseSpan phase_span_from_json(const F&);                                          \
  template std::vector<PhaseSpan> phases_from_json(const F&);                                 \
  template std::vector<PhaseSpan> phase_laps_from_json(const F&);                             \
  template KernelSpan kernel_span_from_json(const F&);                                        \
  template Timeline timeline_from_json(const F&);                                             \
  template TelemetrySample telemetry_sample_from_json(const F&);                              \
  template RunTelemetry run_telemetry_from_json(const F&);                                    \
  template std::vector<RunTelemetry> telemetry_from_json(const F&);                           \
  template Finding finding_from_json(const F&);                                               \
  template std::vector<Finding> findings_from_json(const F&);                                 \
  template ConfigFailure config_failure_from_json(const F&);                                  \
  template std::vector<ConfigFailure> failures_from_json(const F&, std::size_t);              \
  template ConfigStop config_stop_from_json(const F&);                                        \
  template void check_config_index(const F&, std::size_t, std::size_t);                      \
  template int header_before_configs_from_json(const F&, Results::Data*, const char*);        \
  template int header_from_json(const F&, Results::Data*, const char*);
KSCOPE_READERS(JsonField)
KSCOPE_READERS(TapeField)
#undef KSCOPE_READERS

}  // namespace kscope::report
