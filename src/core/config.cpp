#include "kscope/config.hpp"

#include "kscope/errors.hpp"

namespace kscope {

namespace {

// The names of the config made last on this thread are the next one's when equal: the configs of
// a sweep, made one after the other, share one copy.
std::shared_ptr<const std::vector<std::string>> shared_names(std::vector<std::string> names) {
  thread_local std::shared_ptr<const std::vector<std::string>> last;
  if (!last || *last != names) last = std::make_shared<const std::vector<std::string>>(std::move(names));
  return last;
}

}  // namespace

Config::Config(std::vector<Value> values, std::vector<std::string> names)
    : values_(std::move(values)) {
  for (std::size_t i = names.size(); i < values_.size(); ++i) {
    names.push_back("arg" + std::to_string(i));
  }
  names.resize(values_.size());
  names_ = shared_names(std::move(names));
}

const std::vector<std::string>& Config::names() const {
  static const std::vector<std::string> kNone;
  return names_ ? *names_ : kNone;
}

const Value& Config::operator[](std::size_t i) const {
  if (i >= values_.size()) {
    throw InvalidArgument("config index " + std::to_string(i) + " out of range: the config has " +
                          std::to_string(values_.size()) + " values (" + label() + ")");
  }
  return values_[i];
}

const Value& Config::at(std::string_view name) const {
  const auto& parameters = names();
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i] == name) return values_[i];
  }
  std::string known;
  for (const auto& n : parameters) known += (known.empty() ? "" : ", ") + n;
  throw InvalidArgument("config has no parameter named '" + std::string(name) +
                        "'; parameters are: " + (known.empty() ? "(none)" : known));
}

std::string Config::label() const {
  if (!label_.empty()) return label_;
  std::string out;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (i) out += ", ";
    out += names()[i] + "=" + values_[i].to_string();
  }
  return out;
}

std::vector<Config> configs(std::initializer_list<Value> values, const std::string& name) {
  std::vector<Config> out;
  out.reserve(values.size());
  for (const auto& v : values) out.emplace_back(std::vector<Value>{v}, std::vector<std::string>{name});
  for (std::size_t i = 0; i < out.size(); ++i) out[i].set_index(i);
  return out;
}

std::vector<Config> configs(const std::vector<std::string>& names,
                            const std::vector<std::vector<Value>>& rows) {
  std::vector<Config> out;
  out.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != names.size()) {
      throw ConfigError("config " + std::to_string(i) + " has " + std::to_string(rows[i].size()) +
                        " values but " + std::to_string(names.size()) +
                        " parameter names were given");
    }
    out.emplace_back(rows[i], names);
    out.back().set_index(i);
  }
  return out;
}

std::vector<Config> product(const std::vector<std::string>& names,
                            const std::vector<std::vector<Value>>& axes) {
  if (names.size() != axes.size()) {
    throw ConfigError("product: " + std::to_string(names.size()) + " names for " +
                      std::to_string(axes.size()) + " axes");
  }
  std::vector<std::vector<Value>> rows{{}};
  for (const auto& axis : axes) {
    if (axis.empty()) return {};
    std::vector<std::vector<Value>> next;
    for (const auto& prefix : rows) {
      for (const auto& v : axis) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    }
    rows = std::move(next);
  }
  return configs(names, rows);
}

}  // namespace kscope
