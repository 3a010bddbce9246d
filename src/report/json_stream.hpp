#pragma once
// A JSON document written as it is made: members and elements go to the stream through a
// buffer, so that a result of a million rows is never a tree in memory (nlohmann's trees of a
// 50,000-config result took 26 s to build and dump). The layout is nlohmann's dump(1): one
// member or element per line, each level indented by one space, `"key": value`, `[]` and `{}`
// for empty containers; values come as compact JSON text (json_text's encoders, or to_text() of
// a small Json), which the stream lays out at its depth.

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "report/json_field.hpp"

namespace kscope::report {

class JsonStream {
 public:
  explicit JsonStream(std::ostream& out) : out_(out) {}
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;

  void begin_object();
  void begin_array();
  /// Closes the innermost object or array.
  void end();
  /// The next member's name, in an object.
  void key(std::string_view name);
  /// A value given as compact JSON text (no whitespace outside strings).
  void compact(std::string_view text);
  /// A value given as text laid out already for where it goes (json_text.hpp's Layout of
  /// depth()).
  void laid_out(std::string_view text);
  /// How deep the next value goes: the objects and arrays open.
  [[nodiscard]] std::size_t depth() const { return open_.size(); }
  void json(const Json& value);
  /// Writes what is buffered (also done whenever the buffer fills).
  void flush();

 private:
  void item();  // before a member or element: the comma, the new line and the indentation
  void new_line(std::size_t depth);
  void spill();
  // Room for `n` more bytes at buffer_[used_].
  void room(std::size_t n) {
    if (buffer_.size() - used_ < n) buffer_.resize(std::max(2 * buffer_.size(), used_ + n));
  }
  void put(char c) {
    room(1);
    buffer_[used_++] = c;
  }
  void put(std::string_view s);

  std::ostream& out_;
  std::string buffer_;  // the text not yet written is its first used_ bytes
  std::size_t used_ = 0;
  struct Open {
    char close;  // '}' or ']'
    bool empty;  // nothing in it yet
  };
  std::vector<Open> open_;
  bool after_key_ = false;
};

}  // namespace kscope::report
