#include "subprocess/line_tail.hpp"

namespace kscope::subprocess {

void LineTail::push(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  lines_.push_back(std::move(line));
  while (lines_.size() > max_lines_) lines_.pop_front();
}

void LineTail::append(std::string_view chunk) {
  std::size_t start = 0;
  for (std::size_t nl = chunk.find('\n'); nl != std::string_view::npos;
       nl = chunk.find('\n', start)) {
    partial_.append(chunk.substr(start, nl - start));
    push(std::move(partial_));
    partial_.clear();
    start = nl + 1;
  }
  partial_.append(chunk.substr(start));
  // A line without newline that grows without bound (a progress bar redrawn with '\r') must not
  // hold the whole stream: keep its end only.
  constexpr std::size_t kMaxPartial = 64 * 1024;
  if (partial_.size() > kMaxPartial) partial_.erase(0, partial_.size() - kMaxPartial);
}

std::vector<std::string> LineTail::lines() const {
  std::vector<std::string> out(lines_.begin(), lines_.end());
  if (!partial_.empty()) {
    out.push_back(partial_);
    if (out.size() > max_lines_) out.erase(out.begin());
  }
  return out;
}

}  // namespace kscope::subprocess
