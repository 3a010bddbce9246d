#include "api/resume.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "kscope/errors.hpp"
#include "report/journal.hpp"
#include "report/json_codec.hpp"

namespace kscope {
namespace {

// Options that change what is shown or written, not what is measured.
const std::set<std::string>& free_options() {
  static const std::set<std::string> keys = {
      "verbosity",       "output_prefix", "output_csv",         "resume",
      "on_config_error", "reexec_argv",   "reexec_unavailable", "derive_metric",
      "combine_kernel_metrics", "ncu_part_seconds"};
  return keys;
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw InvalidArgument("Invalid resume '" + path + "': " + why +
                        ". Resume with the session, configs and options that wrote the journal, "
                        "or leave resume empty to measure the sweep anew.");
}

void check_options(const std::string& path, const Options& there, const Options& here) {
  const report::Json a = report::to_json(there);
  const report::Json b = report::to_json(here);
  std::set<std::string> keys;
  for (const auto& [key, value] : a.items()) keys.insert(key);
  for (const auto& [key, value] : b.items()) keys.insert(key);
  for (const auto& key : keys) {
    if (free_options().count(key) != 0) continue;
    const report::Json& va = a.contains(key) ? a.at(key) : report::Json();
    const report::Json& vb = b.contains(key) ? b.at(key) : report::Json();
    if (va != vb) {
      refuse(path, "the journal was written with " + key + "=" + report::to_text(va) +
                       ", this session has " + key + "=" + report::to_text(vb));
    }
  }
}

void check_configs(const std::string& path, const std::vector<Config>& there,
                   const std::vector<std::string>& parameters, const std::vector<Config>& here) {
  if (!here.empty() && parameters != here.front().names()) {
    refuse(path, "the journal's parameters are " + report::to_text(report::Json(parameters)) +
                     ", this session's are " +
                     report::to_text(report::Json(here.front().names())));
  }
  // Both sides through the journal's encoding, so that a value compares as it was stored.
  const report::Json a = report::configs_to_json(there);
  const report::Json stored = report::configs_to_json(here);
  const report::Json b = report::configs_to_json(
      report::configs_from_json(report::JsonField(stored), parameters));
  if (a.size() != b.size()) {
    refuse(path, "the journal holds " + std::to_string(a.size()) + " configs, this session has " +
                     std::to_string(b.size()));
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i]["values"] != b[i]["values"]) {
      refuse(path, "config " + std::to_string(i) + " is (" + there[i].label() +
                       ") in the journal and (" + here[i].label() + ") here");
    }
  }
}

}  // namespace

ResumePlan plan_resume(std::string_view name, const std::vector<Config>& configs,
                       const Options& options, const Logger& log) {
  const std::string& path = options.resume;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InvalidArgument("Invalid resume '" + path +
                          "': no such file. Give the journal an earlier run of this sweep wrote "
                          "(its path is printed as \"Journal: ...\" when a session starts).");
  }
  report::JournalContents c = report::read_journal(path);
  for (const auto& w : c.data.load_warnings) log.warn(w);
  if (c.data.name != name) {
    refuse(path, "the journal is of session '" + c.data.name + "', this session is '" +
                     std::string(name) + "'");
  }
  check_configs(path, c.data.configs, c.data.parameters, configs);
  check_options(path, c.data.options, options);

  std::set<std::size_t> failed;
  for (const auto& f : c.data.failures) failed.insert(f.config);
  std::map<std::size_t, std::set<std::size_t>> finished;  // config -> measured runs finished
  for (const auto& r : c.runs) {
    if (!r.run.warmup) finished[r.run.config].insert(r.run.run);
  }
  auto done = [&](std::size_t config) {
    const auto it = finished.find(config);
    return failed.count(config) == 0 && it != finished.end() &&
           it->second.size() == static_cast<std::size_t>(options.runs);
  };
  ResumePlan plan;
  for (const auto& config : configs) {
    if (!done(config.index())) plan.to_measure.push_back(config);
  }
  for (auto& r : c.runs) {
    if (done(r.run.config)) plan.carried.runs.push_back(std::move(r));
  }
  for (auto& k : c.records) {
    if (done(k.run.config)) plan.carried.records.push_back(std::move(k));
  }
  for (auto& t : c.telemetry) {
    if (done(t.config)) plan.telemetry.push_back(std::move(t));
  }
  log.info("Resuming from journal " + path + ": " +
           std::to_string(configs.size() - plan.to_measure.size()) + " of " +
           std::to_string(configs.size()) + " configs are complete there, " +
           std::to_string(plan.to_measure.size()) + " left to measure");
  return plan;
}

std::unique_ptr<report::JournalWriter> open_journal(const Results::Data& d,
                                                    const ResumePlan* resume) {
  if (!resume) return std::make_unique<report::JournalWriter>(d.journal_path, d);
  auto journal = std::make_unique<report::JournalWriter>(d.journal_path + ".resuming", d);
  journal->append(resume->carried.runs, resume->carried.records, resume->telemetry);
  journal->move_to(d.journal_path);
  return journal;
}

Session::Output merge_resumed(ResumePlan plan, Session::Output measured) {
  Session::Output out = std::move(plan.carried);
  for (auto& r : measured.runs) out.runs.push_back(std::move(r));
  for (auto& k : measured.records) out.records.push_back(std::move(k));
  out.failures = std::move(measured.failures);
  auto by_run = [](const auto& a, const auto& b) { return a.run < b.run; };
  std::stable_sort(out.runs.begin(), out.runs.end(), by_run);
  std::stable_sort(out.records.begin(), out.records.end(), by_run);
  return out;
}

}  // namespace kscope
