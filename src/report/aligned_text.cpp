#include "report/aligned_text.hpp"

#include <algorithm>

namespace kscope::report {
namespace {

std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

void print_aligned(const Cells& cells, std::ostream& out) {
  std::vector<std::size_t> w(cells.header.size());
  for (std::size_t i = 0; i < cells.header.size(); ++i) w[i] = width(cells.header[i]);
  for (const auto& row : cells.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], width(row[i]));
  }
  auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(w[i] - width(row[i]), ' ');
      const bool right = i >= cells.first_number && i < cells.first_number + cells.numbers;
      out << (i ? "  " : "") << (right ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : ""));
    }
    out << "\n";
  };
  emit(cells.header);
  std::size_t total = 0;
  for (auto x : w) total += x;
  out << std::string(total + 2 * (w.size() - 1), '-') << "\n";
  for (const auto& row : cells.rows) emit(row);
}

}  // namespace kscope::report
