#include "report/result_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "core/processed_columns.hpp"
#include "core/text_file.hpp"
#include "report/journal.hpp"
#include "kscope/errors.hpp"
#include "report/json_codec.hpp"
#include "report/json_tape.hpp"
#include "report/parquet_result.hpp"
#include "report/streamed_json.hpp"

namespace kscope::report {
namespace {

struct CloseFile {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Reads one result file; every step either reads what Results::load's tree reader would read,
// to the same values, or throws TapeMiss.
class ResultStream {
 public:
  ResultStream(std::FILE* file, const ResultTables& tables) : in_(file), tables_(tables) {}

  Results::Data read() {
    std::string head = "{";  // the header's members before "configs", parsed at once
    const std::set<std::string> seen = object([&](const std::string& key) {
      if (!configs_read_ && key != "configs") {
        std::string_view text;
        if (!in_.value(&text)) throw TapeMiss{};
        head += (head.size() > 1 ? ",\"" : "\"") + key + "\":";
        head.append(text);
      } else if (key == "configs") {
        header(head + "}");
      } else {
        member(key);
      }
    });
    if (!in_.at_end() || !configs_read_) throw TapeMiss{};
    for (const char* required : {"raw", "processed"}) {
      if (!seen.count(required)) throw TapeMiss{};
    }
    if (timeline_parts_ && max_part_ >= std::max<std::size_t>(d_.timeline.parts.size(), 1)) {
      throw TapeMiss{};
    }
    d_.checked = names_a_checking_tool(d_);
    return std::move(d_);
  }

 private:
  // The header, then the configs one by one.
  void header(const std::string& head) {
    if (!tape_.parse(head)) throw TapeMiss{};
    const TapeField root(tape_, 0);
    const auto kind = root.find("kind");
    if (!kind || !kind->is_string() || kind->text() != "kscope.results") throw TapeMiss{};
    header_before_configs_from_json(root, &d_);
    d_.complete = root.value("complete", true);
    d_.journal_path = root.value("journal", std::string());
    const std::vector<std::string> parameters = d_.parameters;
    rows([&](const TapeField& c) { d_.configs.push_back(config_from_json(c, parameters, d_.configs.size())); });
    configs_read_ = true;
  }

  // A member after the configs.
  void member(const std::string& key) {
    if (key == "info_columns") {
      if (rows_started_) throw TapeMiss{};  // the rows read with the columns they have
      if (const auto v = whole()) d_.info_columns = info_columns_from_json(*v);
    } else if (key == "raw" || key == "processed") {
      rows_started_ = true;
      const bool raw = key == "raw";
      if (!(raw ? tables_.raw : tables_.processed)) return skip_rows();
      const std::vector<std::string> info =
          raw ? raw_info_columns(d_.info_columns) : processed_info_columns(d_.info_columns);
      const std::size_t configs = d_.configs.size();
      rows([&](const TapeField& r) {
        if (raw) {
          append_checked(r, raw_row_from_json(r, info), &d_.raw, configs);
        } else {
          append_checked(r, processed_row_from_json(r, info), &d_.processed, configs);
        }
      });
    } else if (key == "telemetry") {
      if (!tables_.telemetry) return skip();
      optional_rows([&](const TapeField& t) { d_.telemetry.push_back(run_telemetry_from_json(t)); });
    } else if (key == "findings") {
      optional_rows([&](const TapeField& f) { d_.findings.push_back(finding_from_json(f)); });
    } else if (key == "failed_configs") {
      if (const auto v = whole()) d_.failures = failures_from_json(*v, d_.configs.size());
    } else if (key == "stops") {
      const std::size_t configs = d_.configs.size();
      optional_rows([&](const TapeField& s) {
        append_checked(s, config_stop_from_json(s), &d_.stops, configs);
      });
    } else if (key == "timeline") {
      if (!tables_.timeline) return skip();
      timeline();
    } else if (key == "schema_version" || key == "kind" || key == "name" || key == "id" ||
               key == "options" || key == "metadata" || key == "parameters" ||
               key == "complete" || key == "journal") {
      throw TapeMiss{};  // a header member after the configs: not kscope's layout
    } else {
      other();
    }
  }

  // "timeline": its phases and kernels one by one, its parts at once.
  void timeline() {
    if (null()) return;
    const std::set<std::string> seen = object([&](const std::string& key) {
      if (key == "phases") {
        rows([&](const TapeField& p) {
          d_.timeline.phases.push_back(phase_span_from_json(p));
          max_part_ = std::max(max_part_, d_.timeline.phases.back().part);
        });
      } else if (key == "kernels") {
        rows([&](const TapeField& k) {
          d_.timeline.kernels.push_back(kernel_span_from_json(k));
          max_part_ = std::max(max_part_, d_.timeline.kernels.back().part);
        });
      } else if (key == "parts") {
        if (const auto v = whole()) {
          for (const auto& p : v->items()) d_.timeline.parts.push_back(p.get<std::string>());
        }
      } else {
        other();
      }
    });
    if (!seen.count("phases") || !seen.count("kernels")) throw TapeMiss{};
    timeline_parts_ = true;
  }

  // An object, its "{" included: `read(key)` takes each member's value. A key seen twice is not
  // kscope's layout (the tree's reader, nlohmann, keeps its last value). Returns the keys.
  template <class Read>
  std::set<std::string> object(Read read) {
    if (!in_.take('{')) throw TapeMiss{};
    std::set<std::string> seen;
    std::string key;
    bool first = true;
    while (!in_.take('}')) {
      if (!first && !in_.take(',')) throw TapeMiss{};
      first = false;
      if (!in_.key(&key) || !seen.insert(key).second) throw TapeMiss{};
      read(key);
    }
    return seen;
  }

  // Whether the next value is null (then taken).
  bool null() {
    if (!in_.next_is('n')) return false;
    std::string_view text;
    if (!in_.value(&text) || text != "null") throw TapeMiss{};
    return true;
  }

  // A member's value parsed whole; nullopt when it is null (an absent member to the readers).
  std::optional<TapeField> whole() {
    std::string_view text;
    if (!in_.value(&text) || !tape_.parse(text)) throw TapeMiss{};
    const TapeField v(tape_, 0);
    if (v.is_null()) return std::nullopt;
    return v;
  }

  // A member no reader reads: parsed, so that what is not JSON is found, then dropped; skipped
  // when some table is skipped (nothing is checked then).
  void other() {
    if (tables_.raw && tables_.processed && tables_.telemetry && tables_.timeline) {
      (void)whole();
    } else {
      skip();
    }
  }

  void skip() {
    if (!in_.skip()) throw TapeMiss{};
  }

  void skip_rows() {
    if (!in_.take('[')) throw TapeMiss{};  // the tables are arrays
    if (in_.take(']')) return;
    do {
      skip();
    } while (in_.take(','));
    if (!in_.take(']')) throw TapeMiss{};
  }

  // An array's elements one by one, each read by `read`.
  template <class Read>
  void rows(const Read& read) {
    if (!in_.take('[')) throw TapeMiss{};
    if (in_.take(']')) return;
    std::string_view text;
    do {
      if (!in_.value(&text) || !tape_.parse(text)) throw TapeMiss{};
      read(TapeField(tape_, 0));
    } while (in_.take(','));
    if (!in_.take(']')) throw TapeMiss{};
  }

  // The same for a member that may be null (absent).
  template <class Read>
  void optional_rows(const Read& read) {
    if (!null()) rows(read);
  }

  StreamedJson in_;
  ResultTables tables_;
  JsonTape tape_;
  Results::Data d_;
  bool configs_read_ = false;
  bool rows_started_ = false;
  bool timeline_parts_ = false;
  std::size_t max_part_ = 0;
};

// The whole of `in` (the file `path`), read once into its string.
std::string whole_file(std::ifstream& in, const std::string& path) {
  in.clear();
  in.seekg(0);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {  // not a regular file: read it as a stream
    std::stringstream all;
    all << in.rdbuf();
    return all.str();
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(&text[0], static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

std::optional<Results::Data> read_result_streamed(const std::string& path,
                                                  const ResultTables& tables) {
  std::unique_ptr<std::FILE, CloseFile> file(std::fopen(path.c_str(), "rb"));
  if (!file) return std::nullopt;
  try {
    return ResultStream(file.get(), tables).read();
  } catch (const TapeMiss&) {
    return std::nullopt;
  } catch (const FileFormatError&) {  // a reader's check (the tree's reader says it with the path)
    return std::nullopt;
  }
}

Results::Data read_result_tree(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  std::string text = whole_file(in, path);
  check_text_file(text, path, "a kscope result (JSON) or journal (JSON lines)");
  // Big results: the text goes once parsed, each section's tree once read (peak memory).
  Json j = parse_json(text, path);
  std::string().swap(text);
  const JsonField root(j);
  if (!j.is_object() || j.value("kind", Json()) != "kscope.results") {
    throw FileFormatError("'" + path +
                          "' is not a kscope result file (expected a JSON object whose kind is "
                          "\"kscope.results\", found " +
                          (j.is_object() ? describe(j.value("kind", Json()))
                                         : describe(j)) +
                          ")");
  }
  Results::Data d;
  try {
    header_from_json(root, &d);
    d.complete = root.value("complete", true);
    d.journal_path = root.value("journal", std::string());
    if (const auto info = root.find("info_columns")) {
      d.info_columns = info_columns_from_json(*info);
    }
    const std::vector<std::string> raw_info = raw_info_columns(d.info_columns);
    const std::vector<std::string> processed_info = processed_info_columns(d.info_columns);
    const auto raw = root.at("raw").items();
    d.raw.reserve(raw.size());
    for (const auto& r : raw) append_checked(r, raw_row_from_json(r, raw_info), &d.raw, d.configs.size());
    j["raw"] = nullptr;
    const auto processed = root.at("processed").items();
    d.processed.reserve(processed.size());
    for (const auto& p : processed) {
      append_checked(p, processed_row_from_json(p, processed_info), &d.processed, d.configs.size());
    }
    j["processed"] = nullptr;
    if (const auto t = root.find("telemetry")) d.telemetry = telemetry_from_json(*t);
    if (const auto f = root.find("findings")) d.findings = findings_from_json(*f);
    if (const auto f = root.find("failed_configs")) {
      d.failures = failures_from_json(*f, d.configs.size());
    }
    if (const auto s = root.find("stops")) {
      for (const auto& stop : s->items()) {
        append_checked(stop, config_stop_from_json(stop), &d.stops, d.configs.size());
      }
    }
    if (const auto t = root.find("timeline")) d.timeline = timeline_from_json(*t);
    d.checked = names_a_checking_tool(d);
  } catch (const FileFormatError& e) {
    throw FileFormatError("'" + path + "' does not follow the kscope result schema " +
                          "(docs/output-schema.md): " + e.what());
  }
  return d;
}


Results load_results(const std::string& path, const ResultTables& tables) {
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open '" + path + "': " + std::strerror(errno));
    // A Parquet file starts with its magic bytes, whatever its name (its tables read by column).
    std::string head(4, '\0');
    in.read(&head[0], 4);
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (starts_as_parquet(head)) return load_parquet(path, tables);
    in.clear();
    in.seekg(0);
    // A journal starts with a one-line header whose kind says so; its reader reads it line by
    // line.
    std::string first_line;
    std::getline(in, first_line);
    if (first_line.find("\"kscope.journal\"") != std::string::npos) return load_journal(path);
  }
  // A result kscope wrote is read streamed; anything else as a tree, which says what is wrong.
  if (auto streamed = read_result_streamed(path, tables)) return Results(std::move(*streamed));
  return Results(read_result_tree(path));
}

}  // namespace kscope::report
