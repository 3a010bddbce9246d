#include "report/json_field.hpp"

#include <algorithm>
#include <cmath>

#include "kscope/errors.hpp"

namespace kscope::report {
namespace {

// Integers above 2^53 are not all representable as double: such a float is not read as an integer.
constexpr std::uint64_t kLargestExactDouble = std::uint64_t{1} << 53;

// JSON Pointer escaping of one reference token (RFC 6901).
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// "line L, column C" of the character at `index` of `text`; lines counted from `first_line`.
std::string position(const std::string& text, std::size_t index, std::size_t first_line) {
  index = std::min(index, text.size());
  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.begin() + index, '\n'));
  const std::size_t line_start = newlines == 0 ? 0 : text.rfind('\n', index - 1) + 1;
  return "line " + std::to_string(first_line + newlines) + ", column " +
         std::to_string(index - line_start + 1);
}

// nlohmann's message without its name and position: "[json.exception.parse_error.101] parse
// error at line 1, column 8: syntax error while parsing object key - unexpected end of input;
// expected string literal" is "unexpected end of input; expected string literal".
std::string reason(std::string what) {
  for (const char* prefix : {"] ", ": ", " - "}) {
    if (const auto at = what.find(prefix); at != std::string::npos) {
      if (std::string(prefix) != " - " || what.rfind("syntax error", 0) == 0) {
        what = what.substr(at + std::string(prefix).size());
      }
    }
  }
  return what;
}

}  // namespace

Json parse_json(const std::string& text, const std::string& file, std::size_t first_line) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    // e.byte: 1 for the first character, the size + 1 at the end of the input.
    throw FileFormatError("'" + file + "' is not valid JSON at " +
                          position(text, e.byte == 0 ? 0 : e.byte - 1, first_line) + ": " +
                          reason(e.what()));
  } catch (const Json::exception& e) {  // a number too large for a double
    throw FileFormatError("'" + file + "' is not valid JSON: " + reason(e.what()));
  }
}

std::string describe(const Json& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) {
    return "an array of " + std::to_string(j.size()) + (j.size() == 1 ? " element" : " elements");
  }
  std::string text = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  constexpr std::size_t kMax = 60;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

void JsonField::fail(const std::string& expected) const {
  throw FileFormatError("at " + path() + ": expected " + expected + ", found " + describe(*value_));
}

JsonField JsonField::at(const char* key) const {
  if (!value_->is_object()) fail("an object with the member \"" + std::string(key) + "\"");
  auto it = value_->find(key);
  if (it == value_->end()) {
    throw FileFormatError("at " + path() + ": the member \"" + key + "\" is missing");
  }
  return JsonField(*it, path_ + "/" + pointer_token(key));
}

std::optional<JsonField> JsonField::find(const char* key) const {
  if (!value_->is_object()) fail("an object");
  auto it = value_->find(key);
  if (it == value_->end() || it->is_null()) return std::nullopt;
  return JsonField(*it, path_ + "/" + pointer_token(key));
}

JsonField JsonField::element(std::size_t i) const {
  if (!value_->is_array() || i >= value_->size()) {
    fail("an array of at least " + std::to_string(i + 1) + " elements");
  }
  return JsonField((*value_)[i], path_ + "/" + std::to_string(i));
}

std::vector<JsonField> JsonField::items() const {
  if (!value_->is_array()) fail("an array");
  std::vector<JsonField> out;
  out.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i) {
    out.emplace_back((*value_)[i], path_ + "/" + std::to_string(i));
  }
  return out;
}

std::optional<std::int64_t> JsonNumber::signed_in(std::int64_t min, std::int64_t max) const {
  if (kind == Kind::kUnsigned) {
    if (u > static_cast<std::uint64_t>(max)) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (kind == Kind::kInteger) {
    if (i < min || i > max) return std::nullopt;
    return i;
  }
  if (std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(min) &&
      d <= static_cast<double>(max) && std::fabs(d) <= static_cast<double>(kLargestExactDouble)) {
    return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

std::optional<std::uint64_t> JsonNumber::unsigned_up_to(std::uint64_t max) const {
  if (kind == Kind::kUnsigned) {
    if (u > max) return std::nullopt;
    return u;
  }
  if (kind == Kind::kInteger) return std::nullopt;  // negative
  if (std::isfinite(d) && d == std::floor(d) && d >= 0 && d <= static_cast<double>(max) &&
      d <= static_cast<double>(kLargestExactDouble)) {
    return static_cast<std::uint64_t>(d);
  }
  return std::nullopt;
}

std::optional<JsonNumber> JsonField::number() const {
  JsonNumber n;
  if (value_->is_number_unsigned()) {
    n.kind = JsonNumber::Kind::kUnsigned;
    n.u = value_->get<std::uint64_t>();
  } else if (value_->is_number_integer()) {
    n.kind = JsonNumber::Kind::kInteger;
    n.i = value_->get<std::int64_t>();
  } else if (value_->is_number_float()) {
    n.d = value_->get<double>();
  } else {
    return std::nullopt;
  }
  return n;
}

std::int64_t JsonField::signed_integer(std::int64_t min, std::int64_t max) const {
  const std::string expected =
      min == std::numeric_limits<std::int64_t>::min() && max == std::numeric_limits<std::int64_t>::max()
          ? "an integer"
          : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  const auto n = number();
  const auto v = n ? n->signed_in(min, max) : std::nullopt;
  if (!v) fail(expected);
  return *v;
}

std::uint64_t JsonField::unsigned_integer(std::uint64_t max) const {
  const std::string expected = max >= kLargestExactDouble
                                   ? "a non-negative integer"
                                   : "a non-negative integer up to " + std::to_string(max);
  const auto n = number();
  const auto v = n ? n->unsigned_up_to(max) : std::nullopt;
  if (!v) fail(expected);
  return *v;
}

}  // namespace kscope::report
