#pragma once
/// @file value.hpp
/// kscope::Value: one configuration parameter value (integer, floating point, string or bool).

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace kscope {

/**
 * One parameter value of a configuration.
 *
 * Integers of any width are stored as int64, floating point as double. Construction from
 * integer literals is unambiguous (`Value v = 1 << 20;` is an integer, `Value v = 0.5;` a double,
 * `Value v = "fp16";` a string, `Value v = true;` a bool).
 */
class Value {
 public:
  using Storage = std::variant<std::int64_t, double, std::string, bool>;

  Value() : v_(std::int64_t{0}) {}
  Value(int x) : v_(std::int64_t{x}) {}                          // NOLINT(implicit)
  Value(long x) : v_(std::int64_t{x}) {}                         // NOLINT(implicit)
  Value(long long x) : v_(static_cast<std::int64_t>(x)) {}       // NOLINT(implicit)
  Value(unsigned x) : v_(static_cast<std::int64_t>(x)) {}        // NOLINT(implicit)
  Value(unsigned long x) : v_(static_cast<std::int64_t>(x)) {}   // NOLINT(implicit)
  Value(unsigned long long x) : v_(static_cast<std::int64_t>(x)) {}  // NOLINT(implicit)
  Value(double x) : v_(x) {}                                     // NOLINT(implicit)
  Value(float x) : v_(static_cast<double>(x)) {}                 // NOLINT(implicit)
  Value(bool x) : v_(x) {}                                       // NOLINT(implicit)
  Value(const char* x) : v_(std::string(x)) {}                   // NOLINT(implicit)
  Value(std::string x) : v_(std::move(x)) {}                     // NOLINT(implicit)
  Value(std::string_view x) : v_(std::string(x)) {}              // NOLINT(implicit)

  [[nodiscard]] bool is_int() const { return std::holds_alternative<std::int64_t>(v_); }
  [[nodiscard]] bool is_double() const { return std::holds_alternative<double>(v_); }
  [[nodiscard]] bool is_string() const { return std::holds_alternative<std::string>(v_); }
  [[nodiscard]] bool is_bool() const { return std::holds_alternative<bool>(v_); }

  /// The value as T. Integers convert to any arithmetic T, doubles to floating T; anything else
  /// throws kscope::InvalidArgument naming the stored type.
  template <class T>
  [[nodiscard]] T get() const;

  /// Type name of the stored alternative: "int", "float", "str" or "bool".
  [[nodiscard]] const char* type_name() const;

  /// Human-readable form: 1048576, 0.5, fp16, true.
  [[nodiscard]] std::string to_string() const;

  [[nodiscard]] const Storage& storage() const { return v_; }

  friend bool operator==(const Value& a, const Value& b) { return a.v_ == b.v_; }
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

 private:
  [[noreturn]] void throw_bad_get(const char* wanted) const;
  Storage v_;
};

template <class T>
T Value::get() const {
  if constexpr (std::is_same_v<T, std::string>) {
    if (auto* s = std::get_if<std::string>(&v_)) return *s;
    throw_bad_get("str");
  } else if constexpr (std::is_same_v<T, bool>) {
    if (auto* b = std::get_if<bool>(&v_)) return *b;
    throw_bad_get("bool");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (auto* d = std::get_if<double>(&v_)) return static_cast<T>(*d);
    if (auto* i = std::get_if<std::int64_t>(&v_)) return static_cast<T>(*i);
    throw_bad_get("float");
  } else if constexpr (std::is_integral_v<T>) {
    if (auto* i = std::get_if<std::int64_t>(&v_)) return static_cast<T>(*i);
    throw_bad_get("int");
  } else {
    static_assert(sizeof(T) == 0, "Value::get<T>: T must be arithmetic, bool or std::string");
  }
}

}  // namespace kscope
