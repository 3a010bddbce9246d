#pragma once
// A JSON value read fast, for big results (issue 37): JsonTape parses one value's text into a flat
// array of nodes, reusing its memory from one value to the next (a row of a million-row result),
// and TapeField reads it with JsonField's accessors (json_field.hpp), so that the codec's readers
// (json_codec.hpp) read both. It accepts exactly the JSON nlohmann accepts and reads it to the
// same values, or declines: text that is not JSON, a duplicate key, a number beyond a double, and
// every value a reader would refuse throw TapeMiss, whose reader then reads the file the careful
// way (a tree, errors in kscope's words with their JSON path).

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "report/json_field.hpp"

namespace kscope::report {

/// What a TapeField cannot read (or a JsonTape cannot parse): the caller falls back to the tree.
struct TapeMiss {};

class JsonTape {
 public:
  enum class Type : std::uint8_t { kNull, kFalse, kTrue, kUnsigned, kInteger, kFloat, kString, kArray, kObject, kKey };
  struct Node {
    Type type = Type::kNull;
    std::uint32_t count = 0;  ///< array, object: elements or members
    std::uint32_t next = 0;   ///< the node after this value (a key: after its value)
    mutable std::uint32_t hint = 0;  ///< object: where the next lookup starts (reads go in order)
    std::string_view text;    ///< string, key: the text unescaped; number: its token
    union {
      std::uint64_t u;
      std::int64_t i;
      double d;
    } number{};
  };

  /// Parses `text` as one JSON value with white space around it. False when nlohmann would not
  /// read it to the same tree (not JSON, a duplicate key, a number beyond a double). `text` must
  /// outlive the reads.
  [[nodiscard]] bool parse(std::string_view text);
  [[nodiscard]] const Node& node(std::uint32_t i) const { return nodes_[i]; }
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(nodes_.size()); }

 private:
  bool value(std::uint32_t depth);
  bool string(std::string_view* out);
  bool number();
  bool object(std::uint32_t depth);
  bool array(std::uint32_t depth);
  // After a member or an element: a comma (`more`) or the `close` bracket, taken.
  bool after_item(char close, bool* more);
  void space();

  std::vector<Node> nodes_;
  std::string unescaped_;  // escaped strings' text; reserved to the input's size, never moved
  const char* p_ = nullptr;
  const char* end_ = nullptr;
};

/// A value of a JsonTape, read like a JsonField; what JsonField would refuse throws TapeMiss.
class TapeField : public FieldReads<TapeField> {
 public:
  TapeField(const JsonTape& tape, std::uint32_t node) : tape_(&tape), node_(node) {}

  [[nodiscard]] bool is_null() const { return n().type == JsonTape::Type::kNull; }
  [[nodiscard]] bool is_string() const { return n().type == JsonTape::Type::kString; }
  [[nodiscard]] bool is_boolean() const {
    return n().type == JsonTape::Type::kTrue || n().type == JsonTape::Type::kFalse;
  }
  [[nodiscard]] bool is_object() const { return n().type == JsonTape::Type::kObject; }
  [[nodiscard]] bool is_array() const { return n().type == JsonTape::Type::kArray; }
  [[nodiscard]] std::optional<JsonNumber> number() const;
  /// The string's text (a string only).
  [[nodiscard]] std::string_view text() const;
  [[nodiscard]] bool contains(const char* key) const { return member(key).has_value(); }
  [[nodiscard]] TapeField at(const char* key) const;
  [[nodiscard]] std::optional<TapeField> find(const char* key) const;
  [[nodiscard]] TapeField element(std::size_t i) const;
  [[nodiscard]] std::vector<TapeField> items() const;
  /// The value as nlohmann's tree (for what the readers keep as JSON text).
  [[nodiscard]] Json tree() const;

  template <class T>
  [[nodiscard]] T get() const;
  [[noreturn]] void fail(const std::string&) const { throw TapeMiss{}; }
  /// No path: what a reader says of a TapeField is never shown (the tree's reader says it).
  [[nodiscard]] std::string path() const { return {}; }

 private:
  [[nodiscard]] const JsonTape::Node& n() const { return tape_->node(node_); }
  [[nodiscard]] std::optional<std::uint32_t> member(std::string_view key) const;
  const JsonTape* tape_;
  std::uint32_t node_;
};

template <class T>
T TapeField::get() const {
  if constexpr (std::is_same_v<T, std::string>) {
    return std::string(text());
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!is_boolean()) throw TapeMiss{};
    return n().type == JsonTape::Type::kTrue;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (is_null()) return std::numeric_limits<T>::quiet_NaN();
    const auto x = number();
    if (!x) throw TapeMiss{};
    return static_cast<T>(x->as_double());
  } else if constexpr (std::is_integral_v<T>) {
    const auto x = number();
    if (!x) throw TapeMiss{};
    if constexpr (std::is_signed_v<T>) {
      const auto v = x->signed_in(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
      if (!v) throw TapeMiss{};
      return static_cast<T>(*v);
    } else {
      const auto v = x->unsigned_up_to(std::numeric_limits<T>::max());
      if (!v) throw TapeMiss{};
      return static_cast<T>(*v);
    }
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>, "unsupported TapeField type");
    std::vector<std::string> out;
    for (const auto& item : items()) out.push_back(item.get<std::string>());
    return out;
  }
}

}  // namespace kscope::report
