#pragma once
// Reading kscope's JSON formats from files that may be hand-edited, cut short or hostile. A
// JsonField is a value together with its JSON Pointer path in the document ("/raw/3/config");
// every accessor checks the type (and, for integers, integrality and range) and throws
// kscope::FileFormatError "at /raw/3/config: expected a non-negative integer, found -3". The
// loaders add the file name (and, for journals, the line) in front.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace kscope::report {

// Objects keep the order their members were added in (or read in), so that kscope's files read
// in the order docs/output-schema.md gives: what the session was first, its rows, the timeline
// last (nlohmann::json would sort the keys alphabetically).
using Json = nlohmann::ordered_json;

/// A JSON number as nlohmann reads it: an unsigned integer, a (negative) integer, or a float; and
/// the integer conversions JsonField and TapeField (json_tape.hpp) share.
struct JsonNumber {
  enum class Kind { kUnsigned, kInteger, kFloat } kind = Kind::kFloat;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double d = 0;
  [[nodiscard]] double as_double() const {
    return kind == Kind::kUnsigned ? static_cast<double>(u)
                                   : kind == Kind::kInteger ? static_cast<double>(i) : d;
  }
  /// The number as an integer from `min` to `max`: an integer in range, or an integral float in
  /// range that a double holds exactly (2.0 from a tool that writes every number as a float).
  [[nodiscard]] std::optional<std::int64_t> signed_in(std::int64_t min, std::int64_t max) const;
  /// The same for a non-negative integer up to `max`.
  [[nodiscard]] std::optional<std::uint64_t> unsigned_up_to(std::uint64_t max) const;
};

/// What JsonField and TapeField (json_tape.hpp) read alike, through their find() and get<T>().
template <class Field>
class FieldReads {
 public:
  /// Member `key` as T, or `fallback` when it is absent or null.
  template <class T>
  [[nodiscard]] T value(const char* key, T fallback) const {
    const auto f = self().find(key);
    return f ? f->template get<T>() : fallback;
  }
  /// Member `key` as T, or nullopt when it is absent or null.
  template <class T>
  [[nodiscard]] std::optional<T> optional(const char* key) const {
    const auto f = self().find(key);
    if (!f) return std::nullopt;
    return f->template get<T>();
  }

 private:
  [[nodiscard]] const Field& self() const { return static_cast<const Field&>(*this); }
};

class JsonField : public FieldReads<JsonField> {
 public:
  // Implicit on purpose: a document's root is a field with the empty path.
  JsonField(const Json& value, std::string path = {})  // NOLINT(google-explicit-constructor)
      : value_(&value), path_(std::move(path)) {}

  [[nodiscard]] const Json& json() const { return *value_; }
  /// The JSON Pointer of this value; "/" for the root.
  [[nodiscard]] std::string path() const { return path_.empty() ? "/" : path_; }
  [[nodiscard]] bool is_null() const { return value_->is_null(); }
  [[nodiscard]] bool is_string() const { return value_->is_string(); }
  [[nodiscard]] bool is_boolean() const { return value_->is_boolean(); }
  [[nodiscard]] bool is_object() const { return value_->is_object(); }
  /// The value as a JsonNumber; nullopt when it is no number.
  [[nodiscard]] std::optional<JsonNumber> number() const;
  /// Whether this object has the member `key` (null or not).
  [[nodiscard]] bool contains(const char* key) const { return value_->contains(key); }
  /// The value as nlohmann's tree.
  [[nodiscard]] const Json& tree() const { return *value_; }

  /// Member `key`; throws when this is not an object or has no such member.
  [[nodiscard]] JsonField at(const char* key) const;
  /// Member `key`, or nullopt when it is absent or null; throws when this is not an object.
  [[nodiscard]] std::optional<JsonField> find(const char* key) const;
  /// Element `i` of an array; throws when this is not an array or is shorter.
  [[nodiscard]] JsonField element(std::size_t i) const;
  /// The elements of an array; throws when this is not an array.
  [[nodiscard]] std::vector<JsonField> items() const;

  /// The value as T: std::string, bool, double (null reads as NaN), an integer type (the number
  /// must be integral and fit T) or std::vector<std::string>.
  template <class T>
  [[nodiscard]] T get() const;

  /// Throws FileFormatError "at <path>: expected <expected>, found <this value>".
  [[noreturn]] void fail(const std::string& expected) const;

 private:
  [[nodiscard]] std::int64_t signed_integer(std::int64_t min, std::int64_t max) const;
  [[nodiscard]] std::uint64_t unsigned_integer(std::uint64_t max) const;
  const Json* value_;
  std::string path_;
};

/// A short description of a JSON value for error messages: `-3`, `"abc"`, `an object`.
[[nodiscard]] std::string describe(const Json& j);

/// Parses `text`, the contents of the file `file` from its line `first_line` on. Text that is not
/// JSON is a FileFormatError in kscope's words, not nlohmann's: "'<file>' is not valid JSON at
/// line L, column C: <reason>", e.g. "unexpected end of input; expected string literal".
[[nodiscard]] Json parse_json(const std::string& text, const std::string& file,
                              std::size_t first_line = 1);

template <class T>
T JsonField::get() const {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!value_->is_string()) fail("a string");
    return value_->get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!value_->is_boolean()) fail("true or false");
    return value_->get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (value_->is_null()) return std::numeric_limits<T>::quiet_NaN();
    if (!value_->is_number()) fail("a number or null");
    return value_->get<T>();
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return static_cast<T>(signed_integer(std::numeric_limits<T>::min(),
                                         std::numeric_limits<T>::max()));
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(unsigned_integer(std::numeric_limits<T>::max()));
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>, "unsupported JsonField type");
    std::vector<std::string> out;
    for (const auto& item : items()) out.push_back(item.get<std::string>());
    return out;
  }
}

}  // namespace kscope::report
