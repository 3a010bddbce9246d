#include "report/aligned_text.hpp"

#include <algorithm>
#include <sstream>

namespace kscope::report {
namespace {

std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

void print_aligned(const Cells& cells, std::ostream& out, const CellTint& tint) {
  std::vector<std::size_t> w(cells.header.size());
  for (std::size_t i = 0; i < cells.header.size(); ++i) w[i] = width(cells.header[i]);
  for (const auto& row : cells.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], width(row[i]));
  }
  // One line; `tint_of(i)` is the colour of its column i.
  auto line = [&](const std::vector<std::string>& row, const std::function<Tint(std::size_t)>& tint_of) {
    std::ostringstream s;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(w[i] - width(row[i]), ' ');
      const std::string text = tinted(row[i], tint_of ? tint_of(i) : Tint::kNone);
      const bool right = i >= cells.first_number && i < cells.first_number + cells.numbers;
      s << (i ? "  " : "") << (right ? pad + text : text + (i + 1 < row.size() ? pad : ""));
    }
    return s.str();
  };
  out << tinted(line(cells.header, {}), tint ? Tint::kBold : Tint::kNone) << "\n";
  std::size_t total = 0;
  for (auto x : w) total += x;
  out << std::string(total + 2 * (w.size() - 1), '-') << "\n";
  for (std::size_t r = 0; r < cells.rows.size(); ++r) {
    std::function<Tint(std::size_t)> tint_of;
    if (tint) tint_of = [&](std::size_t column) { return tint(r, column); };
    out << line(cells.rows[r], tint_of) << "\n";
  }
}

}  // namespace kscope::report
