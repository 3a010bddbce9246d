#include "api/sweep_identity.hpp"

#include <set>

#include "core/option_table.hpp"
#include "report/json_codec.hpp"
#include "report/json_text.hpp"

namespace kscope {
namespace {

// An option that may differ between the parts of one sweep (option_table.hpp); a key the table
// does not know (a file of another kscope version) must agree.
bool is_free(const std::string& key) {
  const OptionSpec* spec = find_option(key);
  return spec != nullptr && spec->record == OptionRecord::kFree;
}

std::optional<std::string> option_difference(const Options& there, const Options& here,
                                             const std::string& there_word,
                                             const std::string& here_word) {
  const report::Json a = report::to_json(there);
  const report::Json b = report::to_json(here);
  std::set<std::string> keys;
  for (const auto& [key, value] : a.items()) keys.insert(key);
  for (const auto& [key, value] : b.items()) keys.insert(key);
  for (const auto& key : keys) {
    if (is_free(key)) continue;
    const report::Json va = a.contains(key) ? a.at(key) : report::Json();
    const report::Json vb = b.contains(key) ? b.at(key) : report::Json();
    if (va != vb) {
      return there_word + " was written with " + key + "=" + report::to_text(va) + ", " +
             here_word + " has " + key + "=" + report::to_text(vb);
    }
  }
  return std::nullopt;
}

// A config's values as the saved encoding writes them.
std::string values_text(const Config& c) {
  std::string text;
  for (const auto& v : c.values()) {
    report::append_json(text, v);
    text += ',';
  }
  return text;
}

}  // namespace

std::optional<std::string> sweep_difference(const Results::Data& there, std::string_view name,
                                            const std::vector<Config>& configs,
                                            const Options& options, const std::string& there_word,
                                            const std::string& here_word) {
  if (there.name != name) {
    return there_word + " is of session '" + there.name + "', " + here_word + " is '" +
           std::string(name) + "'";
  }
  const std::vector<std::string> parameters =
      configs.empty() ? std::vector<std::string>{} : configs.front().names();
  if (there.parameters != parameters) {
    return there_word + "'s parameters are " + report::to_text(report::Json(there.parameters)) +
           ", " + here_word + "'s are " + report::to_text(report::Json(parameters));
  }
  if (there.configs.size() != configs.size()) {
    return there_word + " holds " + std::to_string(there.configs.size()) + " configs, " +
           here_word + " has " + std::to_string(configs.size());
  }
  for (std::size_t i = 0; i < configs.size(); ++i) {
    // The same saved text is the same config; other texts may still be equal values (1 and
    // 1.0), so both sides go through the saved encoding, to compare as they were stored.
    if (values_text(there.configs[i]) == values_text(configs[i])) continue;
    const report::Json a = report::configs_to_json({there.configs[i]});
    const report::Json stored = report::configs_to_json({configs[i]});
    const report::Json b = report::configs_to_json(
        report::configs_from_json(report::JsonField(stored), there.parameters));
    if (a[0]["values"] != b[0]["values"]) {
      return "config " + std::to_string(i) + " is (" + there.configs[i].label() + ") in " +
             there_word + " and (" + configs[i].label() + ") here";
    }
  }
  return option_difference(there.options, options, there_word, here_word);
}

}  // namespace kscope
