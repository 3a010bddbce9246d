#include "report/parquet_result.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <type_traits>
#include <variant>

#include "core/processed_columns.hpp"
#include "core/raw_columns.hpp"
#include "kscope/errors.hpp"
#include "report/json_codec.hpp"
#include "report/json_text.hpp"
#include "report/parquet_fields.hpp"
#include "report/writer.hpp"

namespace kscope::report {
namespace {

using parquet::Cell;
using parquet::Column;
using parquet::ColumnValues;
using parquet::Field;
using parquet::member;
using parquet::TableReader;
using parquet::TableWriter;
using parquet::Type;

/// The key-value metadata of the file that holds the JSON head of the result.
constexpr const char* kResultKey = "kscope.results";
/// A table's key-value metadata: the names of its text columns whose cells are JSON values (an
/// info collector's column that holds both numbers and strings).
constexpr const char* kJsonColumnsKey = "kscope.json_columns";

// ---- Columns whose type is the data's: a config's parameters, an info collector's values ----

// The type every config's value of parameter `j` has; text when they differ.
Type parameter_type(const std::vector<Config>& configs, std::size_t j) {
  std::optional<std::size_t> kind;  // Value::Storage's alternative
  for (const auto& c : configs) {
    if (j >= c.values().size()) return Type::kByteArray;
    const std::size_t k = c.values()[j].storage().index();
    if (kind && *kind != k) return Type::kByteArray;
    kind = k;
  }
  switch (kind.value_or(2)) {
    case 0: return Type::kInt64;
    case 1: return Type::kDouble;
    case 3: return Type::kBoolean;
    default: return Type::kByteArray;
  }
}

// The parameters' columns of rows that have a `config`: written for readers, never read back
// (the configs table holds the values).
template <class Row>
void add_parameter_fields(std::vector<Field<Row>>& fields, const Results& results) {
  for (std::size_t j = 0; j < results.parameters().size(); ++j) {
    const Type type = parameter_type(results.configs(), j);
    fields.push_back({Column{results.parameters()[j], type, true},
                      [&results, j, type](TableWriter& w, const Row& row, std::size_t) {
                        const auto& configs = results.configs();
                        if (row.config >= configs.size() ||
                            j >= configs[row.config].values().size()) {
                          w.null();
                          return;
                        }
                        const Value& v = configs[row.config].values()[j];
                        switch (type) {
                          case Type::kInt64: w.value(v.get<std::int64_t>()); break;
                          case Type::kDouble: w.value(v.get<double>()); break;
                          case Type::kBoolean: w.value(v.get<bool>()); break;
                          default: w.value(std::string_view(v.to_string())); break;
                        }
                      },
                      nullptr, false});
  }
}

enum class InfoKind { kNumber, kText, kJson };

template <class Row>
InfoKind info_kind(const std::vector<Row>& rows, std::size_t column) {
  bool numbers = false;
  bool strings = false;
  for (const auto& r : rows) {
    if (column >= r.info.size()) continue;
    numbers = numbers || r.info[column].is_number();
    strings = strings || r.info[column].is_string();
  }
  return strings ? (numbers ? InfoKind::kJson : InfoKind::kText) : InfoKind::kNumber;
}

// The info collectors' columns: numbers as DOUBLE, strings as text, a column of both as the
// JSON text of each value; null where a row has no value.
template <class Row>
void add_info_fields(std::vector<Field<Row>>& fields, const std::vector<std::string>& names,
                     const std::vector<InfoKind>& kinds) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const InfoKind kind = kinds[i];
    const std::size_t count = names.size();
    fields.push_back(
        {Column{names[i], kind == InfoKind::kNumber ? Type::kDouble : Type::kByteArray, true},
         [i, kind](TableWriter& w, const Row& row, std::size_t) {
           const InfoValue v = i < row.info.size() ? row.info[i] : InfoValue();
           if (v.empty()) {
             w.null();
           } else if (kind == InfoKind::kNumber) {
             w.value(v.number());
           } else if (kind == InfoKind::kText) {
             w.value(std::string_view(v.text()));
           } else {
             w.value(std::string_view(to_text(to_json(v))));
           }
         },
         [i, kind, count](const ColumnValues& c, std::size_t row, Row& r) {
           r.info.resize(count);
           if (c.null(row)) return;
           if (kind == InfoKind::kNumber) {
             r.info[i] = InfoValue(c.doubles[row]);
           } else if (kind == InfoKind::kText) {
             r.info[i] = InfoValue(std::string(c.strings[row]));
           } else {
             const Json j = Json::parse(c.strings[row], nullptr, false);
             if (j.is_discarded()) throw FileFormatError("expected a JSON value");
             r.info[i] = info_value_from_json(JsonField(j));
           }
         },
         true});
  }
}

// A column of the result's metadata, the same in every row: written, never read back.
template <class Row, class T>
Field<Row> metadata_field(const char* name, const Results* results, T Metadata::*m) {
  return {Column{name, Cell<T>::type, false},
          [results, m](TableWriter& w, const Row&, std::size_t) {
            Cell<T>::put(w, results->metadata().*m);
          },
          nullptr, false};
}

// ---- The tables. `results` is null when reading: the columns never read back are left out ----

// The fields of one column of a column table (raw_columns(), processed_columns()): a member of
// the row (`required`: reading fails without it), the metadata's or the parameters' (written,
// never read back: left out when reading) or the info collectors'.
template <class Row, class ColumnField>
void add_column(std::vector<Field<Row>>& fields, const char* name, const ColumnField& column,
                bool required, const Results* results, const std::vector<std::string>& info_names,
                const std::vector<InfoKind>& info_kinds) {
  std::visit(
      [&](const auto& field) {
        using F = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<F, ParameterColumns>) {
          if (results) add_parameter_fields(fields, *results);
        } else if constexpr (std::is_same_v<F, InfoColumns>) {
          add_info_fields(fields, info_names, info_kinds);
        } else if constexpr (std::is_same_v<F, std::string Metadata::*> ||
                             std::is_same_v<F, long long Metadata::*>) {
          if (results) fields.push_back(metadata_field<Row>(name, results, field));
        } else {
          fields.push_back(member(name, field));
          fields.back().required = required;
        }
      },
      column);
}

std::vector<Field<RawRow>> raw_fields(const Results* results,
                                      const std::vector<std::string>& info_names,
                                      const std::vector<InfoKind>& info_kinds) {
  std::vector<Field<RawRow>> fields;
  for (const auto& c : raw_columns()) {
    add_column(fields, c.name, c.field, true, results, info_names, info_kinds);
  }
  fields.push_back(member("config", &RawRow::config));
  fields.push_back(member("run", &RawRow::run));
  return fields;
}

std::vector<Field<ProcessedRow>> processed_fields(const Results* results,
                                                  const std::vector<std::string>& info_names,
                                                  const std::vector<InfoKind>& info_kinds) {
  std::vector<Field<ProcessedRow>> fields;
  for (const auto& c : processed_columns()) {
    if (results && !is_shown(c, *results)) continue;
    add_column(fields, c.name, c.field, c.shown == ColumnShown::kAlways, results, info_names,
               info_kinds);
  }
  fields.push_back(member("config", &ProcessedRow::config));
  return fields;
}

template <class T>
Field<RunTelemetry> sample_field(const std::string& side, const char* name, bool after,
                                 std::optional<T> TelemetrySample::*m) {
  return {Column{side + "_" + name, Cell<T>::type, true},
          [after, m](TableWriter& w, const RunTelemetry& t, std::size_t) {
            const auto& s = after ? t.after : t.before;
            if (s && (*s).*m) {
              Cell<T>::put(w, *((*s).*m));
            } else {
              w.null();
            }
          },
          [after, m](const ColumnValues& c, std::size_t i, RunTelemetry& t) {
            auto& s = after ? t.after : t.before;
            if (s && !c.null(i)) (*s).*m = Cell<T>::get(c, i);
          }};
}

std::vector<Field<RunTelemetry>> telemetry_fields() {
  using T = RunTelemetry;
  using S = TelemetrySample;
  std::vector<Field<T>> fields = {member("config", &T::config), member("run", &T::run),
                                  member("device", &T::device),
                                  member("cooling_wait_s", &T::cooling_wait_s)};
  for (const bool after : {false, true}) {
    const std::string side = after ? "after" : "before";
    // Whether there is a reading; its values follow, each null when NVML did not give it.
    fields.push_back({Column{side, Type::kBoolean, false},
                      [after](TableWriter& w, const T& t, std::size_t) {
                        w.value(static_cast<bool>(after ? t.after : t.before));
                      },
                      [after](const ColumnValues& c, std::size_t i, T& t) {
                        if (c.bools[i]) (after ? t.after : t.before).emplace();
                      }});
    fields.push_back(sample_field(side, "sm_clock_mhz", after, &S::sm_clock_mhz));
    fields.push_back(sample_field(side, "memory_clock_mhz", after, &S::memory_clock_mhz));
    fields.push_back(sample_field(side, "temperature_c", after, &S::temperature_c));
    fields.push_back(sample_field(side, "headroom_c", after, &S::headroom_c));
    fields.push_back(sample_field(side, "power_w", after, &S::power_w));
    fields.push_back(sample_field(side, "clock_event_reasons", after, &S::clock_event_reasons));
    fields.push_back(sample_field(side, "age_ms", after, &S::age_ms));
  }
  return fields;
}

std::vector<Field<PhaseSpan>> phase_fields() {
  using P = PhaseSpan;
  return {member("phase", &P::phase),       member("config", &P::config),
          member("run", &P::run),           member("warmup", &P::warmup),
          member("pass", &P::pass),         member("annotation", &P::annotation),
          member("start_ns", &P::start_ns), member("end_ns", &P::end_ns),
          member("part", &P::part)};
}

std::vector<Field<KernelSpan>> kernel_fields() {
  using K = KernelSpan;
  return {member("annotation", &K::annotation), member("kernel", &K::kernel),
          member("config", &K::config),         member("run", &K::run),
          member("warmup", &K::warmup),         member("device", &K::device),
          member("stream", &K::stream),         member("start_ns", &K::start_ns),
          member("end_ns", &K::end_ns),         member("part", &K::part)};
}

std::vector<Field<ConfigStop>> stop_fields() {
  using S = ConfigStop;
  return {member("config", &S::config), member("runs", &S::runs), member("reason", &S::reason),
          member("rel_ci", &S::rel_ci), member("seconds", &S::seconds)};
}

// The configs table: each config's label (for readers) and values, as the JSON result's.
struct ConfigRow {
  std::string values;  // a JSON array
};

std::vector<Field<ConfigRow>> config_fields(const Results* results,
                                            const std::vector<std::string>* config_values) {
  std::vector<Field<ConfigRow>> fields;
  if (results) {
    fields.push_back({Column{"label", Type::kByteArray, false},
                      [results](TableWriter& w, const ConfigRow&, std::size_t i) {
                        w.value(std::string_view(results->configs()[i].label()));
                      },
                      nullptr, false});
  }
  fields.push_back({Column{"values", Type::kByteArray, false},
                    [results, config_values](TableWriter& w, const ConfigRow&, std::size_t i) {
                      if (config_values && i < config_values->size()) {
                        w.value(std::string_view((*config_values)[i]));
                        return;
                      }
                      std::string text = "[";
                      for (const auto& v : results->configs()[i].values()) {
                        if (text.size() > 1) text += ',';
                        append_json(text, v);
                      }
                      w.value(std::string_view(text + "]"));
                    },
                    [](const ColumnValues& c, std::size_t i, ConfigRow& r) {
                      r.values = std::string(c.strings[i]);
                    }});
  return fields;
}

template <class Row>
std::vector<InfoKind> info_kinds_of(const std::vector<Row>& rows, std::size_t count) {
  std::vector<InfoKind> kinds;
  for (std::size_t i = 0; i < count; ++i) kinds.push_back(info_kind(rows, i));
  return kinds;
}

std::vector<parquet::KeyValue> json_columns_metadata(const std::vector<std::string>& names,
                                                     const std::vector<InfoKind>& kinds) {
  Json json = Json::array();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (kinds[i] == InfoKind::kJson) json.push_back(names[i]);
  }
  if (json.empty()) return {};
  return {{kJsonColumnsKey, to_text(json)}};
}

// The kinds of a table's info columns, from the file: DOUBLE numbers, text, JSON when listed.
std::vector<InfoKind> info_kinds_in(const TableReader& table,
                                    const std::vector<std::string>& names) {
  std::vector<std::string> json;
  if (const auto listed = table.key_value(kJsonColumnsKey)) {
    const Json j = Json::parse(*listed, nullptr, false);
    if (!j.is_array()) table.fail(std::string(kJsonColumnsKey) + " is not a JSON array");
    for (const auto& name : j) {
      if (name.is_string()) json.push_back(name.get<std::string>());
    }
  }
  std::vector<InfoKind> kinds;
  for (const auto& name : names) {
    const auto at = table.find(name);
    if (!at) table.fail("no column '" + name + "' (an info collector's)");
    const bool text = table.columns()[*at].type == Type::kByteArray;
    const bool listed = std::find(json.begin(), json.end(), name) != json.end();
    kinds.push_back(text ? (listed ? InfoKind::kJson : InfoKind::kText) : InfoKind::kNumber);
  }
  return kinds;
}

template <class Row>
void check_config(const TableReader& table, const Row& row, std::size_t index, std::size_t configs) {
  if (row.config >= configs) {
    table.fail("column 'config', row " + std::to_string(index) + ": expected a config index below " +
               std::to_string(configs) + " (the configs table's rows), found " +
               std::to_string(row.config));
  }
}

template <class Rows>
void check_configs(const TableReader& table, const Rows& rows, std::size_t configs) {
  for (std::size_t i = 0; i < rows.size(); ++i) check_config(table, rows[i], i, configs);
}

template <class Span>
void check_span(const TableReader& table, const Span& span, std::size_t index, std::size_t parts) {
  if (span.end_ns < span.start_ns) {
    table.fail("column 'end_ns', row " + std::to_string(index) +
               ": expected an end_ns not before start_ns, found " + std::to_string(span.end_ns));
  }
  if (span.part >= std::max<std::size_t>(parts, 1)) {
    table.fail("column 'part', row " + std::to_string(index) + ": expected a part below " +
               std::to_string(std::max<std::size_t>(parts, 1)) + ", found " +
               std::to_string(span.part));
  }
}

// The file's own table and its head, read once by load_parquet and parquet_config_values.
struct OpenedFile {
  parquet::ByteSource source;
  TableReader file;
  Json head;

  explicit OpenedFile(const std::string& path)
      : source(path), file(source, 0, source.size(), "'" + path + "'") {
    const auto text = file.key_value(kResultKey);
    if (!text) {
      throw FileFormatError(
          "'" + path + "' is a Parquet file but not a kscope result: its key-value metadata has "
          "no \"kscope.results\". kscope reads the Parquet files it writes (kscope show -f "
          "parquet, write(\"parquet\", path)); read other Parquet files with "
          "pandas.read_parquet");
    }
    head = parse_json(*text, path + "' key-value metadata 'kscope.results");
    if (!head.is_object() || head.value("kind", Json()) != "kscope.results") {
      throw FileFormatError("'" + path + "' is not a kscope result file (expected the JSON "
                            "object of its key-value metadata \"kscope.results\" to have the "
                            "kind \"kscope.results\", found " +
                            (head.is_object() ? describe(head.value("kind", Json()))
                                              : describe(head)) +
                            ")");
    }
  }

  // The result's table `name`, a Parquet file inside this one.
  TableReader table(const char* name) {
    const JsonField at = JsonField(head).at("tables").at(name);
    const auto range = at.items();
    if (range.size() != 2) at.fail("[offset, size]");
    const auto offset = range[0].get<std::uint64_t>();
    const auto size = range[1].get<std::uint64_t>();
    if (offset > source.size() || size > source.size() - offset) {
      at.fail("a byte range inside the file's " + std::to_string(source.size()) + " bytes");
    }
    try {
      return TableReader(source, offset, size,
                         "'" + source.path() + "', table " + name + " (bytes " +
                             std::to_string(offset) + " to " + std::to_string(offset + size) + ")");
    } catch (const FileFormatError& e) {
      const std::string writer = file.written_by();
      if (writer.rfind("kscope", 0) == 0) throw;
      throw FileFormatError(std::string(e.what()) + ". This file was written by " + writer +
                            ", not kscope: the tables of a kscope result inside it are lost when "
                            "another program writes it again");
    }
  }

  std::vector<std::string> config_values() {
    TableReader t = table("configs");
    std::vector<std::string> out;
    for (auto& row : parquet::read_table(t, config_fields(nullptr, nullptr))) {
      out.push_back(std::move(row.values));
    }
    return out;
  }
};

std::vector<Config> configs_from_values(const std::vector<std::string>& texts,
                                        const std::vector<std::string>& parameters,
                                        const std::string& path) {
  std::vector<Config> out;
  out.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const Json j = Json::parse(texts[i], nullptr, false);
    const JsonField values(j, "/configs/" + std::to_string(i) + "/values");
    if (!j.is_array() || j.size() != parameters.size()) {
      try {
        values.fail("an array of " + std::to_string(parameters.size()) +
                    " values (one per parameter)");
      } catch (const FileFormatError& e) {
        throw FileFormatError("'" + path + "', table configs: " + e.what());
      }
    }
    std::vector<Value> v;
    for (const auto& item : values.items()) v.push_back(value_from_json(item));
    Config config(std::move(v), parameters);
    config.set_index(i);
    out.push_back(std::move(config));
  }
  return out;
}

}  // namespace

bool starts_as_parquet(const std::string& head) { return head.rfind(parquet::kMagic, 0) == 0; }

void write_results_parquet(const Results& results, std::ostream& stream,
                           const std::vector<std::string>* config_values) {
  const Results::Data& d = results.data();
  parquet::Output out(stream);
  const auto raw_names = raw_info_columns(d.info_columns);
  const auto raw_kinds = info_kinds_of(d.raw, raw_names.size());
  const auto raw = raw_fields(&results, raw_names, raw_kinds);
  std::vector<Column> raw_columns;
  for (const auto& f : raw) raw_columns.push_back(f.column);
  TableWriter file(out, std::move(raw_columns));

  // The other tables, each a Parquet file of its own, between the file's magic and its rows.
  Json tables = Json::object();
  const auto embed = [&](const char* name, const auto& fields, std::size_t count,
                         const auto& row_at, std::vector<parquet::KeyValue> key_value = {}) {
    const std::uint64_t start = out.position();
    const std::uint64_t size = parquet::write_table(out, fields, count, row_at, key_value);
    tables[name] = Json::array({start, size});
  };
  const ConfigRow no_row;
  embed("configs", config_fields(&results, config_values), d.configs.size(),
        [&](std::size_t) -> const ConfigRow& { return no_row; });
  const auto processed_names = processed_info_columns(d.info_columns);
  const auto processed_kinds = info_kinds_of(d.processed, processed_names.size());
  embed("processed", processed_fields(&results, processed_names, processed_kinds),
        d.processed.size(), [&](std::size_t i) -> const ProcessedRow& { return d.processed[i]; },
        json_columns_metadata(processed_names, processed_kinds));
  embed("telemetry", telemetry_fields(), d.telemetry.size(),
        [&](std::size_t i) -> const RunTelemetry& { return d.telemetry[i]; });
  embed("stops", stop_fields(), d.stops.size(),
        [&](std::size_t i) -> const ConfigStop& { return d.stops[i]; });
  embed("phases", phase_fields(), d.timeline.phases.size(),
        [&](std::size_t i) -> PhaseSpan { return d.timeline.phases[i]; });  // packed: a value
  embed("kernels", kernel_fields(), d.timeline.kernels.size(),
        [&](std::size_t i) -> KernelSpan { return d.timeline.kernels[i]; });

  for (std::size_t i = 0; i < d.raw.size(); ++i) {
    for (const auto& f : raw) f.put(file, d.raw[i], i);
    file.end_row();
  }
  Json head = header_json_before_configs(
      d, "kscope.results", Json{{"complete", d.complete}, {"journal", d.journal_path}});
  if (!d.info_columns.empty()) head["info_columns"] = info_columns_to_json(d.info_columns);
  head["findings"] = findings_to_json(d.findings);
  if (!d.failures.empty()) head["failed_configs"] = failures_to_json(d.failures);
  if (!d.timeline.parts.empty()) head["timeline_parts"] = d.timeline.parts;
  head["tables"] = std::move(tables);
  auto key_value = json_columns_metadata(raw_names, raw_kinds);
  key_value.insert(key_value.begin(), {kResultKey, to_text(head)});
  file.finish(std::move(key_value));
}

void write_results_parquet(const Results& results, const std::string& path,
                           const std::vector<std::string>* config_values) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
  write_results_parquet(results, out, config_values);
  out.flush();
  if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
}

Results load_parquet(const std::string& path, const ResultTables& tables) {
  OpenedFile f(path);
  Results::Data d;
  const JsonField root(f.head);
  // Reads members of the JSON head; what is wrong there is named as in the JSON result.
  const auto from_head = [&](const auto& read) {
    try {
      read();
    } catch (const FileFormatError& e) {
      const std::string text = e.what();
      if (text.rfind("'" + path + "'", 0) == 0) throw;
      throw FileFormatError("'" + path + "' does not follow the kscope result schema " +
                            "(docs/output-schema.md): in its key-value metadata "
                            "\"kscope.results\": " + text);
    }
  };
  from_head([&] {
    f.head["configs"] = Json::array();  // in the configs table
    header_from_json(root, &d);
    d.complete = root.value("complete", true);
    d.journal_path = root.value("journal", std::string());
    if (const auto info = root.find("info_columns")) {
      d.info_columns = info_columns_from_json(*info);
    }
    if (const auto findings = root.find("findings")) d.findings = findings_from_json(*findings);
    if (const auto parts = root.find("timeline_parts")) {
      d.timeline.parts = parts->get<std::vector<std::string>>();
    }
  });
  // The file's own table first: a file another program rewrote fails here, on its own terms.
  if (tables.raw) {
    const auto names = raw_info_columns(d.info_columns);
    d.raw = parquet::read_table(f.file, raw_fields(nullptr, names, info_kinds_in(f.file, names)));
  }
  d.configs = configs_from_values(f.config_values(), d.parameters, path);
  const std::size_t configs = d.configs.size();
  check_configs(f.file, d.raw, configs);
  from_head([&] {
    if (const auto failures = root.find("failed_configs")) {
      d.failures = failures_from_json(*failures, configs);
    }
  });
  if (tables.processed) {
    const auto names = processed_info_columns(d.info_columns);
    TableReader t = f.table("processed");
    d.processed = parquet::read_table(t, processed_fields(nullptr, names, info_kinds_in(t, names)));
    check_configs(t, d.processed, configs);
  }
  if (tables.telemetry) {
    TableReader t = f.table("telemetry");
    d.telemetry = parquet::read_table(t, telemetry_fields());
    check_configs(t, d.telemetry, configs);
  }
  {
    TableReader t = f.table("stops");
    d.stops = parquet::read_table(t, stop_fields());
    check_configs(t, d.stops, configs);
  }
  if (tables.timeline) {  // straight into the packed lists, a row group at a time
    const std::size_t parts = d.timeline.parts.size();
    TableReader phases = f.table("phases");
    d.timeline.phases.reserve(phases.rows());
    parquet::for_each_row(phases, phase_fields(), [&](PhaseSpan&& span, std::size_t i) {
      check_span(phases, span, i, parts);
      d.timeline.phases.push_back(span);
    });
    TableReader kernels = f.table("kernels");
    d.timeline.kernels.reserve(kernels.rows());
    parquet::for_each_row(kernels, kernel_fields(), [&](KernelSpan&& span, std::size_t i) {
      check_span(kernels, span, i, parts);
      check_config(kernels, span, i, configs);
      d.timeline.kernels.push_back(span);
    });
  }
  d.checked = names_a_checking_tool(d);
  return Results(std::move(d));
}

std::vector<std::string> parquet_config_values(const std::string& path) {
  OpenedFile f(path);
  return f.config_values();
}

namespace {
void write_parquet(const WriteInput& in, std::ostream& out) {
  write_results_parquet(in.results, out, nullptr);
}
}  // namespace

extern const Writer kParquetWriter;  // registered in writer_registry.cpp
const Writer kParquetWriter{"parquet", ".parquet",
                            "the result as Parquet: the raw table (pandas.read_parquet), with "
                            "every other part inside",
                            &write_parquet, /*compares=*/false, ResultTables{}, /*binary=*/true};

}  // namespace kscope::report
