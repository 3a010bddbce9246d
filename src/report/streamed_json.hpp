#pragma once
// A JSON file read piece by piece (issue 37): the bytes come through a buffer of a few MB, the
// reader takes the document's punctuation, its members' keys and its values' texts one at a time
// (each value whole, for a JsonTape to parse), and skips values it does not need by matching
// their brackets and strings without parsing them. A result of a million rows is never in memory
// whole, as text or as a tree. It checks nothing but where each value ends: what it hands over is
// parsed (and checked) by the caller.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace kscope::report {

class StreamedJson {
 public:
  /// Reads `file` (open for reading; the caller closes it) from its current position.
  explicit StreamedJson(std::FILE* file) : file_(file) {}
  StreamedJson(const StreamedJson&) = delete;
  StreamedJson& operator=(const StreamedJson&) = delete;

  /// White space skipped: whether the next byte is `c`, then taken. JSON's white space only
  /// (space, tab, new line, carriage return).
  [[nodiscard]] bool take(char c);
  /// White space skipped: whether the next byte is `c` (left there).
  [[nodiscard]] bool next_is(char c);
  /// White space skipped: whether the file ends here.
  [[nodiscard]] bool at_end();
  /// A member's key and the colon after it; false when the next thing is not a string without
  /// escapes followed by a colon.
  [[nodiscard]] bool key(std::string* out);
  /// The next value's text, whole, valid until the next call; false when the file ends first.
  [[nodiscard]] bool value(std::string_view* text);
  /// Passes over the next value unread; false when the file ends first.
  [[nodiscard]] bool skip();

 private:
  // Passes over the next value, handing its text to `text` unless it is null (then nothing of
  // it is kept).
  bool pass(std::string_view* text);
  // The scan of a value whose first byte is `first` begins.
  void begin(char first);
  // Where the value being scanned ends (one past it), scanning [p, end) with the state kept
  // between calls; nullptr when the buffer ends first.
  const char* scan(const char* p, const char* end);
  // More bytes after the `keep` ones at the buffer's end; false at the end of the file.
  bool fill(std::size_t keep);
  void space();

  std::FILE* file_;
  std::string buffer_;
  std::size_t pos_ = 0;  // next unread byte
  std::size_t len_ = 0;  // bytes in the buffer
  // The scan of a value cut by the buffer's end.
  bool scalar_ = false;  // a number or literal: it ends where a comma, bracket or space is
  bool container_ = false;  // an object or array: it ends at the bracket that closes it
  int depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
};

}  // namespace kscope::report
