#include "subprocess/child_scope.hpp"

#include <cstdlib>

#include "kscope/errors.hpp"

namespace kscope::subprocess {
namespace {

[[noreturn]] void malformed(const std::string& text, const std::string& why) {
  throw Error(std::string("malformed ") + kChildScopeVariable + "='" + text + "': " + why +
              ". This variable is set by kscope when it re-runs a program under "
              "compute-sanitizer; unset it to run normally.");
}

std::size_t parse_index(const std::string& text, const std::string& digits) {
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    malformed(text, "'" + digits + "' is not a number");
  }
  return static_cast<std::size_t>(std::stoul(digits));
}

}  // namespace

std::string ChildScope::to_string() const {
  std::string out;
  auto add = [&](const std::string& item) { out += (out.empty() ? "" : ";") + item; };
  if (configs) {
    std::string list;
    for (auto c : *configs) list += (list.empty() ? "" : ",") + std::to_string(c);
    add("configs=" + list);
  }
  if (once) add("once");
  if (stop_at > 0) add("stop=" + std::to_string(stop_at));
  if (release_device) add("release");
  if (budget_ms > 0) add("budget=" + std::to_string(budget_ms));
  return out;
}

std::vector<std::pair<std::string, std::string>> ChildScope::environment() const {
  return {{kChildScopeVariable, to_string()}};
}

ChildScope ChildScope::parse(const std::string& text) {
  ChildScope s;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    if (item == "once") {
      s.once = true;
    } else if (item == "release") {
      s.release_device = true;
    } else if (item.rfind("stop=", 0) == 0) {
      s.stop_at = parse_index(text, item.substr(5));
      if (s.stop_at == 0) malformed(text, "stop counts annotation boundaries from 1");
    } else if (item.rfind("budget=", 0) == 0) {
      s.budget_ms = parse_index(text, item.substr(7));
    } else if (item.rfind("configs=", 0) == 0) {
      std::vector<std::size_t> list;
      const std::string digits = item.substr(8);
      std::size_t p = 0;
      while (p <= digits.size()) {
        std::size_t comma = digits.find(',', p);
        if (comma == std::string::npos) comma = digits.size();
        list.push_back(parse_index(text, digits.substr(p, comma - p)));
        p = comma + 1;
      }
      s.configs = std::move(list);
    } else if (!item.empty()) {
      malformed(text, "unknown item '" + item + "'");
    }
  }
  return s;
}

ChildScope ChildScope::from_environment() {
  const char* value = std::getenv(kChildScopeVariable);
  return value ? parse(value) : ChildScope{};
}

std::vector<Config> ChildScope::select(const std::vector<Config>& all) const {
  if (!configs) return all;
  std::vector<Config> out;
  for (auto i : *configs) {
    if (i >= all.size()) {
      throw Error("the parent asked the re-run program for config " + std::to_string(i) +
                  ", but its session has " + std::to_string(all.size()) +
                  " configs: a program re-run by kscope must call kscope::profile with the same "
                  "configs as the first time.");
    }
    out.push_back(all[i]);
  }
  return out;
}

Options ChildScope::apply(const Options& options) const {
  Options o = options;
  if (once) {
    o.runs = 1;
    o.warmup_runs = 0;
    o.cache_control = "none";
    o.thermal.mode = "off";
  }
  return o;
}

}  // namespace kscope::subprocess
