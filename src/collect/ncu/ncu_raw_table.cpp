#include "collect/ncu/ncu_raw_table.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "collect/ncu/csv_records.hpp"
#include "collect/ncu/ncu_number.hpp"
#include "collect/ncu/ncu_unit_scale.hpp"
#include "core/utf8.hpp"
#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

constexpr const char* kPushPopColumn =
    "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg";
constexpr const char* kStartEndColumn =
    "Id:Domain:Start/Stop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg";
// Leading columns that describe a result rather than measure it. Range replay has no Block
// Size / Grid Size; the NVTX columns exist only with --nvtx.
const char* const kDescriptiveColumns[] = {"ID",          "Process ID", "Process Name",
                                           "Host Name",   kPushPopColumn, kStartEndColumn,
                                           "Kernel Name", "Context",    "Stream",
                                           "Block Size",  "Grid Size",  "Device",
                                           "CC"};

[[noreturn]] void fail(const std::string& source, std::size_t line, const std::string& what) {
  throw FileFormatError("'" + source + "'" + (line ? " line " + std::to_string(line) : std::string()) + ": " +
              what + ". kscope reads ncu's raw page as CSV: ncu --import <report> --csv --page raw "
              "--print-units base.");
}

// Whether the line at `text` is the header row of a raw page: its first cell is ID, quoted (as
// ncu writes it) or not.
bool header_line(std::string_view text) {
  return text.rfind("\"ID\",", 0) == 0 || text.rfind("ID,", 0) == 0;
}

// Where the table starts: the header row, after what `ncu --csv ./app > out.csv 2>&1` puts
// before it (the program's output, ==PROF== and ==WARNING== lines), which goes to `skipped`.
// Returns the offset of the header line and sets `line` to its 1-based number. Without a header
// line: the first line that is not a tool line, so that the reader names what it found in place
// of a header (or the end when there are only tool lines: a report without results).
std::size_t table_start(std::string_view text, std::size_t* line,
                        std::vector<SkippedLine>* skipped) {
  std::vector<SkippedLine> before;
  std::size_t first_other = std::string_view::npos, first_other_line = 0;
  std::size_t at = 0, number = 1;
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view l = text.substr(at, end - at);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (header_line(l)) {
      *line = number;
      *skipped = std::move(before);
      return at;
    }
    if (!l.empty()) {
      before.push_back({number, std::string(l)});
      if (first_other == std::string_view::npos && l.rfind("==", 0) != 0) {
        first_other = at;
        first_other_line = number;
      }
    }
    at = end + 1;
    ++number;
  }
  *line = first_other == std::string_view::npos ? number : first_other_line;
  return first_other == std::string_view::npos ? text.size() : first_other;
}

// An integer cell ("ID", "Device"): a whole number from 0 to `max`.
std::optional<long long> whole_number(const std::string& cell, long long max) {
  const auto v = parse_ncu_number(cell);
  if (!v || !std::isfinite(*v) || *v != std::floor(*v) || *v < 0 ||
      *v > static_cast<double>(max)) {
    return std::nullopt;
  }
  return static_cast<long long>(*v);
}

}  // namespace

long NcuRawTable::find_column(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : static_cast<long>(it->second);
}

std::vector<std::string> NcuRawTable::metric_columns() const {
  return {columns_.begin() + static_cast<std::ptrdiff_t>(first_metric_), columns_.end()};
}

double NcuRawTable::number(const NcuResult& result, std::size_t column) const {
  const std::string& cell = result.cells.at(column);
  const auto v = parse_ncu_number(cell);
  if (!v) {
    throw FileFormatError("'" + source_ + "' line " + std::to_string(result.line) + ": '" +
                columns_.at(column) + "' of result " + std::to_string(result.id) +
                " is not a number ('" + cell + "'); only numeric metrics can be measured.");
  }
  const double scale = scales_.at(column);
  if (std::isnan(scale)) {
    throw FileFormatError("'" + source_ + "': '" + columns_.at(column) + "' is in unit '" +
                printed_units_.at(column) +
                "', a scaled unit kscope cannot convert to its base unit. Export the report "
                "with base units: ncu --import <report> --csv --page raw --print-units base.");
  }
  return *v * scale;
}

std::string NcuRawTable::text(const NcuResult& result, std::string_view column) const {
  const long c = find_column(column);
  return c < 0 ? std::string() : result.cells.at(static_cast<std::size_t>(c));
}

NcuRawTable NcuRawTable::parse(std::string_view raw_text, const std::string& source) {
  NcuRawTable t;
  t.source_ = source;
  // Names that are not UTF-8 are carried with "\xNN" escapes (core/utf8.hpp).
  const std::string utf8_text = escape_invalid_utf8(raw_text);
  const std::string_view text = utf8_text;
  std::size_t header_line_number = 1;
  const std::size_t start = table_start(text, &header_line_number, &t.skipped_);
  const auto records = read_csv_records(text.substr(start), source, header_line_number);
  if (records.empty()) return t;  // a report without results prints nothing

  t.columns_ = records[0].cells;
  if (t.columns_.front() != "ID") {
    fail(source, records[0].line,
         "expected the header row of ncu's raw page (starting with \"ID\"), found \"" +
             t.columns_.front() + "\"");
  }
  if (t.columns_.size() > kMaxNcuColumns) {
    fail(source, records[0].line,
         "the header has " + std::to_string(t.columns_.size()) + " columns, more than the " +
             std::to_string(kMaxNcuColumns) + " of any raw page");
  }
  std::size_t header_bytes = 0;
  for (const auto& c : t.columns_) header_bytes += c.size();
  if (header_bytes > kMaxNcuHeaderBytes) {
    fail(source, records[0].line,
         "the header's names take " + std::to_string(header_bytes) + " bytes, more than the " +
             std::to_string(kMaxNcuHeaderBytes) + " of any raw page");
  }
  for (std::size_t i = 0; i < t.columns_.size(); ++i) t.index_.emplace(t.columns_[i], i);
  for (const char* required : {"ID", "Kernel Name", "Device"}) {
    if (t.find_column(required) < 0) {
      fail(source, records[0].line, std::string("the header has no \"") + required + "\" column");
    }
  }
  t.first_metric_ = 0;
  for (std::size_t i = 0; i < t.columns_.size(); ++i) {
    bool descriptive = false;
    for (const char* d : kDescriptiveColumns) descriptive = descriptive || t.columns_[i] == d;
    if (descriptive) t.first_metric_ = i + 1;
  }

  if (records.size() < 2) fail(source, records[0].line, "the units row after the header is missing (truncated file?)");
  const auto& units = records[1];
  if (!units.cells.front().empty()) {
    fail(source, units.line,
         "the units row is missing: the row after the header must hold the units (its \"ID\" "
         "cell empty), found result \"" + units.cells.front() + "\"");
  }
  if (units.cells.size() != t.columns_.size()) {
    fail(source, units.line,
         "the units row has " + std::to_string(units.cells.size()) + " cells, the header " +
             std::to_string(t.columns_.size()) + " (truncated file?)");
  }
  t.printed_units_ = units.cells;
  for (const auto& printed : t.printed_units_) {
    const auto base = base_unit(printed);
    t.units_.push_back(base ? base->unit : printed);
    t.scales_.push_back(base ? base->factor : std::numeric_limits<double>::quiet_NaN());
  }

  const long push_pop = t.find_column(kPushPopColumn);
  const long start_end = t.find_column(kStartEndColumn);
  const auto kernel = static_cast<std::size_t>(t.find_column("Kernel Name"));
  const auto device = static_cast<std::size_t>(t.find_column("Device"));
  const long host = t.find_column("Host Name");
  std::unordered_map<long long, std::size_t> id_lines;  // ID -> the line of its row
  for (std::size_t r = 2; r < records.size(); ++r) {
    const auto& rec = records[r];
    if (rec.cells.size() != t.columns_.size()) {
      fail(source, rec.line,
           "row has " + std::to_string(rec.cells.size()) + " cells, the header " +
               std::to_string(t.columns_.size()) + " (truncated file?)");
    }
    NcuResult res;
    res.line = rec.line;
    // Whole numbers in range: a cast of 1e300 or 1.5 would be a wrong ID, not an error.
    constexpr long long kMaxId = 1LL << 53;  // every ID up to it is exact as a double
    const auto id = whole_number(rec.cells[0], kMaxId);
    const auto dev = whole_number(rec.cells[device], std::numeric_limits<int>::max());
    if (!id || !dev) {
      fail(source, rec.line,
           "\"ID\" and \"Device\" must be integers (ID up to 2^53, Device up to " +
               std::to_string(std::numeric_limits<int>::max()) + "), found \"" + rec.cells[0] +
               "\" and \"" + rec.cells[device] + "\"");
    }
    res.id = *id;
    if (const auto [first, fresh] = id_lines.emplace(*id, rec.line); !fresh) {
      fail(source, rec.line,
           "ID " + std::to_string(*id) + " again (first on line " +
               std::to_string(first->second) +
               "): ncu numbers each result once, so rows were repeated or two pages joined. "
               "Export the report once");
    }
    res.device = static_cast<int>(*dev);
    res.kernel = rec.cells[kernel];
    if (host >= 0) res.host = rec.cells[static_cast<std::size_t>(host)];
    try {
      if (push_pop >= 0) res.push_pop = parse_push_pop_cell(rec.cells[static_cast<std::size_t>(push_pop)]);
      if (start_end >= 0) res.start_end = parse_start_end_cell(rec.cells[static_cast<std::size_t>(start_end)]);
    } catch (const Error& e) {
      fail(source, rec.line, e.what());
    }
    res.cells = rec.cells;
    t.results_.push_back(std::move(res));
  }
  return t;
}

}  // namespace kscope::ncu
