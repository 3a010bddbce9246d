#include "api/resume.hpp"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>

#include "api/sweep_identity.hpp"
#include "kscope/errors.hpp"
#include "report/journal.hpp"

namespace kscope {

ResumePlan plan_resume(std::string_view name, const std::vector<Config>& configs,
                       const Options& options, const Logger& log) {
  const std::string& path = options.resume;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InvalidArgument("Invalid resume '" + path +
                          "': no such file. Give the journal an earlier run of this sweep wrote "
                          "(its path is printed as \"Journal: ...\" when a session starts).");
  }
  if (report::is_result_file(path)) {
    throw InvalidArgument("Invalid resume '" + path +
                          "': it is a kscope result file, not a journal. Give the journal the run "
                          "wrote (its path is printed as \"Journal: ...\" when a session starts; "
                          "the result's journal_path names it).");
  }
  report::JournalContents c = report::read_journal(path);
  for (const auto& w : c.data.load_warnings) log.warn(w);
  if (const auto difference = sweep_difference(c.data, name, configs, options)) {
    throw InvalidArgument("Invalid resume '" + path + "': " + *difference +
                          ". Resume with the session, configs and options that wrote the "
                          "journal, or leave resume empty to measure the sweep anew.");
  }

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
  journal->append(resume->carried.runs, resume->carried.records.all(), resume->telemetry);
  journal->move_to(d.journal_path);
  return journal;
}

Session::Output merge_resumed(ResumePlan plan, Session::Output measured) {
  Session::Output out = std::move(plan.carried);
  for (auto& r : measured.runs) out.runs.push_back(std::move(r));
  // The measured records are copied while the journal's last line still shares them.
  std::vector<KernelRecord> records = std::move(out.records).take();
  std::vector<KernelRecord> fresh = std::move(measured.records).take();
  records.insert(records.end(), std::make_move_iterator(fresh.begin()),
                 std::make_move_iterator(fresh.end()));
  out.failures = std::move(measured.failures);
  auto by_run = [](const auto& a, const auto& b) { return a.run < b.run; };
  std::stable_sort(out.runs.begin(), out.runs.end(), by_run);
  std::stable_sort(records.begin(), records.end(), by_run);
  out.records = std::move(records);
  return out;
}

}  // namespace kscope
