#pragma once
// Keeps the last N lines of a byte stream that arrives in arbitrary chunks (a child's stderr),
// so error messages can quote the end of a long output without holding all of it.

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::subprocess {

class LineTail {
 public:
  explicit LineTail(std::size_t max_lines) : max_lines_(max_lines) {}

  /// Appends a chunk; a line may be split across chunks.
  void append(std::string_view chunk);
  /// The last complete lines plus an unfinished last line, oldest first, without newlines.
  [[nodiscard]] std::vector<std::string> lines() const;

 private:
  void push(std::string line);
  std::size_t max_lines_;
  std::deque<std::string> lines_;
  std::string partial_;
};

}  // namespace kscope::subprocess
