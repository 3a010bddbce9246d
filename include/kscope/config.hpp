#pragma once
/// @file config.hpp
/// kscope::Config (one point of a sweep) and helpers that build lists of them.

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kscope/value.hpp"

namespace kscope {

/**
 * One configuration of a sweep: ordered parameter values with parameter names.
 *
 * @code
 *   auto cs = kscope::configs({"n", "dtype"}, {{1 << 20, "f32"}, {1 << 24, "f16"}});
 *   // inside the benchmark callable:
 *   auto n = c.get<std::int64_t>("n");   // or c.get<std::int64_t>(0)
 * @endcode
 */
class Config {
 public:
  Config() = default;
  /// Values with their parameter names. Missing names default to "arg0", "arg1", ...
  explicit Config(std::vector<Value> values, std::vector<std::string> names = {});

  [[nodiscard]] std::size_t size() const { return values_.size(); }
  [[nodiscard]] const Value& operator[](std::size_t i) const;
  /// The value of parameter `name`; throws kscope::InvalidArgument listing the known names.
  [[nodiscard]] const Value& at(std::string_view name) const;

  template <class T>
  [[nodiscard]] T get(std::size_t i) const {
    return (*this)[i].template get<T>();
  }
  template <class T>
  [[nodiscard]] T get(std::string_view name) const {
    return at(name).template get<T>();
  }

  [[nodiscard]] const std::vector<Value>& values() const { return values_; }
  [[nodiscard]] const std::vector<std::string>& names() const;

  /// Position of this config in the sweep (set by kscope::profile before the first run).
  [[nodiscard]] std::size_t index() const { return index_; }
  void set_index(std::size_t i) { index_ = i; }

  /// "n=1048576, dtype=f32". A label given with set_label() replaces the generated one.
  [[nodiscard]] std::string label() const;
  void set_label(std::string label) { label_ = std::move(label); }

 private:
  std::vector<Value> values_;
  // Shared by the configs of a sweep: a million configs hold their names once.
  std::shared_ptr<const std::vector<std::string>> names_;
  std::string label_;
  std::size_t index_ = 0;
};

/// One-parameter sweep: `kscope::configs({1 << 20, 1 << 24})`, parameter named `name`.
[[nodiscard]] std::vector<Config> configs(std::initializer_list<Value> values,
                                          const std::string& name = "arg0");

/// Sweep from explicit rows: each row holds one value per name. Throws kscope::ConfigError when
/// a row has a different number of values than there are names.
[[nodiscard]] std::vector<Config> configs(const std::vector<std::string>& names,
                                          const std::vector<std::vector<Value>>& rows);

/// Cartesian product of named axes, first axis slowest:
/// `product({"n", "dtype"}, {{1024, 2048}, {"f32", "f16"}})` gives 4 configs.
[[nodiscard]] std::vector<Config> product(const std::vector<std::string>& names,
                                          const std::vector<std::vector<Value>>& axes);

}  // namespace kscope
