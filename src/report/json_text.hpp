#pragma once
// JSON text of the pieces a journal line or a result is made of (runs, kernel records, telemetry,
// host phases, raw rows, kernel spans, configs), appended straight to a string: the journal
// writes them for every run of a sweep and the result writer for every row, so they skip
// nlohmann's object trees (~45 us per run on the H200 host, docs/architecture.md). The
// one description of these encodings: the codec's to_json() of the same types parses this text.
// Same rules as the codec: NaN and infinities become null; text that is not UTF-8 gets U+FFFD.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/processed_columns.hpp"
#include "kscope/results.hpp"
#include "kscope/timeline.hpp"

namespace kscope::report {

/// How an encoder lays out an object's members: compact (a journal line's: {"a":1,"b":2}), or as
/// the JSON result's document (nlohmann's dump(1)) has an object at `depth`, each member on a
/// line of its own, so that the result's rows need no second pass (JsonStream::laid_out). Only
/// the rows with no nested object take a layout (PhaseSpan, KernelSpan, raw and processed rows
/// without info columns).
struct Layout {
  explicit Layout(std::size_t depth);
  static const Layout& compact();
  std::string first;  // before the first member's name
  std::string next;   // before every other member's name
  std::string colon;  // after a member's name
  std::string close;  // after the last member

 private:
  Layout(std::string first_, std::string next_, std::string colon_, std::string close_);
};

/// `s` as a JSON string (quoted, escaped).
void append_json_string(std::string& out, std::string_view s);
/// `x` as a JSON number, null when not finite; integral values keep a ".0".
void append_json_number(std::string& out, double x);
/// `x` as nlohmann's dump writes it (its Grisu2 digits, which differ from the shortest ones of
/// std::to_chars in about one double in a thousand), null when not finite: the processed rows'
/// numbers, which were written from trees, stay byte for byte what they were.
void append_tree_number(std::string& out, double x);
/// `v` as a JSON integer (std::to_chars).
template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
void append_json_integer(std::string& out, Int v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}
/// Info collectors' values as the codec encodes them, a JSON array (rare on the hot path: through
/// the codec's tree).
void append_json(std::string& out, const std::vector<InfoValue>& values);

void append_json(std::string& out, const RunLog& r);
void append_json(std::string& out, const KernelRecord& k);
void append_json(std::string& out, const PhaseSpan& p, const Layout& layout = Layout::compact());
void append_json(std::string& out, const RunTelemetry& t);
void append_json(std::string& out, const Value& v);
void append_json(std::string& out, const KernelSpan& k, const Layout& layout = Layout::compact());
/// A raw row; `info_names` as the codec's to_json(RawRow).
void append_json(std::string& out, const RawRow& r, const std::vector<std::string>& info_names,
                 const Layout& layout = Layout::compact());
/// A processed row, its columns in the order of the processed column table (the info object, by
/// `info_names`, before the columns written only when set); the codec's to_json(ProcessedRow).
void append_json(std::string& out, const ProcessedRow& p, const std::vector<std::string>& info_names,
                 const Layout& layout = Layout::compact());
/// Whether a processed row's JSON has `column` after its info object (a column written only when
/// set).
[[nodiscard]] bool after_info(const ProcessedColumn& column);
/// A row's info collectors' values, as the object keyed by `names` (null where none).
void append_info(std::string& out, const std::vector<InfoValue>& values,
                 const std::vector<std::string>& names);
/// Config `index` as "configs" holds it: {"index", "label", "values"}; `values`, when given, is
/// the JSON text of its values in place of the config's own (the Python front's objects).
void append_config(std::string& out, const Config& c, std::size_t index,
                   const std::string* values = nullptr);

/// The items of `items` as a JSON array.
template <class Items>
std::string json_array_text(const Items& items) {
  std::string out = "[";
  for (const auto& item : items) {
    if (out.size() > 1) out += ',';
    append_json(out, item);
  }
  return out + "]";
}

}  // namespace kscope::report
