#include "collect/ncu/csv_records.hpp"

#include "kscope/errors.hpp"

namespace kscope::ncu {

std::vector<CsvRecord> read_csv_records(std::string_view text, const std::string& source,
                                        std::size_t first_line) {
  std::vector<CsvRecord> out;
  std::size_t i = 0;
  std::size_t line = first_line;
  const std::size_t n = text.size();
  while (i < n) {
    // At the start of a record: skip tool lines and blank lines.
    if (text.compare(i, 2, "==") == 0 || text[i] == '\n' || text[i] == '\r') {
      const std::size_t nl = text.find('\n', i);
      i = nl == std::string_view::npos ? n : nl + 1;
      ++line;
      continue;
    }
    CsvRecord rec;
    rec.line = line;
    std::string cell;
    bool quoted = false;      // inside a quoted cell
    bool end_record = false;
    while (i < n && !end_record) {
      if (cell.size() > kMaxCsvCellBytes) {
        throw FileFormatError("'" + source + "' line " + std::to_string(line) + ": cell " +
                              std::to_string(rec.cells.size() + 1) + " is longer than " +
                              std::to_string(kMaxCsvCellBytes) +
                              " bytes, more than any cell of ncu's raw page; the file is not its "
                              "CSV (ncu --import <report> --csv --page raw --print-units base).");
      }
      const char c = text[i];
      if (quoted) {
        if (c == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            cell += '"';
            i += 2;
            continue;
          }
          quoted = false;
        } else {
          if (c == '\n') ++line;
          cell += c;
        }
        ++i;
        continue;
      }
      switch (c) {
        case '"':
          quoted = true;
          break;
        case ',':
          rec.cells.push_back(std::move(cell));
          cell.clear();
          break;
        case '\r':
          break;
        case '\n':
          ++line;
          end_record = true;
          break;
        default:
          cell += c;
      }
      ++i;
    }
    if (quoted) {
      throw FileFormatError("'" + source + "' line " + std::to_string(rec.line) +
                  ": a quoted cell is not closed before the end of the file; the file is "
                  "truncated. Export it again (ncu --import <report> --csv --page raw --print-units "
                  "base).");
    }
    rec.cells.push_back(std::move(cell));
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace kscope::ncu
