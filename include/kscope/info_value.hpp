#pragma once
/// @file info_value.hpp
/// kscope::InfoValue: what an info collector returned for one call: a number, a string, or
/// nothing (docs/info-collectors.md).

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace kscope {

/**
 * One value of an info collector's column.
 *
 * Any arithmetic type is stored as a double (bool as 1 or 0); text as a string. A default
 * constructed value, std::nullopt and NaN mean "no value": the cell is empty (None / NaN in
 * Python) and statistics skip it.
 *
 * @code
 *   kscope::InfoValue a = 42;          // number
 *   kscope::InfoValue b = "sm_90";     // string
 *   kscope::InfoValue c = std::nullopt;  // no value
 * @endcode
 */
class InfoValue {
 public:
  InfoValue() = default;
  InfoValue(std::nullopt_t) {}  // NOLINT(implicit)
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  InfoValue(T x) {  // NOLINT(implicit)
    const double d = static_cast<double>(x);
    if (!std::isnan(d)) v_ = d;
  }
  InfoValue(const char* s) : v_(std::string(s)) {}       // NOLINT(implicit)
  InfoValue(std::string s) : v_(std::move(s)) {}         // NOLINT(implicit)
  InfoValue(std::string_view s) : v_(std::string(s)) {}  // NOLINT(implicit)

  /// True when there is no value.
  [[nodiscard]] bool empty() const { return v_.index() == 0; }
  [[nodiscard]] bool is_number() const { return v_.index() == 1; }
  [[nodiscard]] bool is_string() const { return v_.index() == 2; }
  /// The number; NaN when the value is empty or a string.
  [[nodiscard]] double number() const {
    return is_number() ? std::get<double>(v_) : std::nan("");
  }
  /// The string; empty when the value is not a string.
  [[nodiscard]] const std::string& text() const {
    static const std::string kNone;
    return is_string() ? std::get<std::string>(v_) : kNone;
  }
  /// "" (empty), the shortest text that reads back to the number ("0.5", "1024"), or the string.
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const InfoValue& a, const InfoValue& b) { return a.v_ == b.v_; }
  friend bool operator!=(const InfoValue& a, const InfoValue& b) { return !(a == b); }

 private:
  std::variant<std::monostate, double, std::string> v_;
};

}  // namespace kscope
