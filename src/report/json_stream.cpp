#include "report/json_stream.hpp"

#include <algorithm>

#include "report/json_codec.hpp"
#include "report/json_text.hpp"

namespace kscope::report {
namespace {
constexpr std::size_t kSpillBytes = std::size_t{1} << 20;

// The characters compact() lays out: quotes, brackets, commas and colons.
struct Specials {
  bool is[256] = {};
  Specials() {
    for (const unsigned char c : std::string_view("\"{}[],:")) is[c] = true;
  }
};
const Specials kSpecials;
}  // namespace

void JsonStream::put(std::string_view s) {
  room(s.size());
  std::copy(s.begin(), s.end(), &buffer_[used_]);
  used_ += s.size();
}

void JsonStream::new_line(std::size_t depth) {
  room(depth + 1);
  buffer_[used_] = '\n';
  std::fill_n(&buffer_[used_ + 1], depth, ' ');
  used_ += depth + 1;
}

void JsonStream::item() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;  // the document itself
  if (!open_.back().empty) put(',');
  open_.back().empty = false;
  new_line(open_.size());
}

void JsonStream::begin_object() {
  item();
  put('{');
  open_.push_back({'}', true});
}

void JsonStream::begin_array() {
  item();
  put('[');
  open_.push_back({']', true});
}

void JsonStream::end() {
  const Open closing = open_.back();
  open_.pop_back();
  if (!closing.empty) new_line(open_.size());
  put(closing.close);
  spill();
}

void JsonStream::key(std::string_view name) {
  item();
  std::string quoted;
  append_json_string(quoted, name);
  put(quoted);
  put(": ");
  after_key_ = true;
}

void JsonStream::compact(std::string_view text) {
  item();
  std::size_t depth = open_.size();
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    // Plain characters (numbers, literals) go over in one run.
    std::size_t stop = i;
    while (stop < n && !kSpecials.is[static_cast<unsigned char>(text[stop])]) ++stop;
    put(text.substr(i, stop - i));
    i = stop;
    if (i == n) break;
    const char c = text[i++];
    switch (c) {
      case '"': {  // a string, escapes and all, up to its closing quote
        std::size_t j = i;
        while (j < n && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
        put('"');
        put(text.substr(i, std::min(j + 1, n) - i));
        i = j + 1;
        break;
      }
      case '{':
      case '[':
        put(c);
        if (i < n && text[i] == (c == '{' ? '}' : ']')) {
          put(text[i++]);
        } else {
          new_line(++depth);
        }
        break;
      case '}':
      case ']':
        new_line(--depth);
        put(c);
        break;
      case ',':
        put(',');
        new_line(depth);
        break;
      default:  // ':'
        put(": ");
        break;
    }
  }
  spill();
}

void JsonStream::laid_out(std::string_view text) {
  item();
  put(text);
  spill();
}

void JsonStream::json(const Json& value) { compact(to_text(value)); }

void JsonStream::spill() {
  if (used_ >= kSpillBytes) flush();
}

void JsonStream::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(used_));
  used_ = 0;
}

}  // namespace kscope::report
