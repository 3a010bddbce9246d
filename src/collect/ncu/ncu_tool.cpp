#include "collect/ncu/ncu_tool.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <filesystem>

#include "collect/ncu/ncu_command.hpp"
#include "collect/ncu/ncu_diagnosis.hpp"
#include "collect/ncu/ncu_locator.hpp"
#include "collect/ncu/ncu_log.hpp"
#include "collect/ncu/ncu_raw_table.hpp"
#include "collect/ncu/ncu_record_mapper.hpp"
#include "collect/ncu/ncu_report_text.hpp"
#include "kscope/errors.hpp"
#include "subprocess/child_scope.hpp"
#include "subprocess/reexec_runner.hpp"
#include "subprocess/self_command.hpp"

namespace kscope::ncu {

void NcuTool::check_options(const Options& options) {
  if (options.cache_control == "region") {
    throw NotSupportedError(
        "cache_control 'region' flushes the L2 once at an annotated region's entry, which Nsight "
        "Compute cannot do: it flushes before every kernel (cache_control 'all', its "
        "--cache-control all) or never ('none'). Use 'all' or 'none' with tool 'ncu', or the "
        "cupti tool for 'region'.");
  }
  if (!options.reexec_unavailable.empty()) {
    throw NotSupportedError(
        subprocess::reexec_unavailable_message("ncu", options.reexec_unavailable) +
        " (Nsight Compute " + kNcuAttachVersion.to_string() +
        " and later can attach to a running process, which this kscope version does not use "
        "yet.)");
  }
}

std::unique_ptr<ExternalTool> NcuTool::create(const Options& options) {
  std::string ncu = locate_ncu();
  const NcuVersion version = query_ncu_version(ncu);
  check_ncu_supports(version, options);
  return std::make_unique<NcuTool>(std::move(ncu), version);
}

NcuTool::Part NcuTool::run_part(const SessionInfo& info, const std::vector<Config>& configs,
                                std::size_t part, std::size_t budget_ms, const Logger& log) {
  const Options& opt = *info.options;
  const NcuPaths paths = ncu_paths(info.output_prefix, info.name, info.id, part);
  subprocess::ChildScope scope;
  scope.configs.emplace();
  for (const auto& c : configs) scope.configs->push_back(c.index());
  scope.budget_ms = budget_ms;
  subprocess::ReexecRequest request;
  request.argv = ncu_profile_argv(ncu_, opt, paths, subprocess::self_command(opt, "ncu"));
  request.marker = subprocess::ChildMarker{info.name, info.id, paths.child_report};
  request.environment = scope.environment();
  // A report or log of an earlier run must not pass for this run's.
  (void)std::remove(paths.report.c_str());
  (void)std::remove(paths.log.c_str());
  log.info("Re-running the program under ncu " + version_.to_string() + " for session '" +
           info.name + "'" +
           (part == 0 ? std::string() : " (part " + std::to_string(part + 1) + ")"));
  log.debug("NCU command: " + subprocess::command_line_text(request.argv) + " with " +
            scope.to_string());

  NcuRunFacts facts;
  facts.outcome = subprocess::run_reexec(request);
  facts.marker = request.marker;
  facts.log = read_ncu_log(paths.log);
  facts.paths = paths;
  facts.metrics = opt.metrics;
  facts.report_exists = std::filesystem::exists(paths.report);
  diagnose_ncu_run(facts);

  const NcuRawTable table = NcuRawTable::parse(ncu_raw_csv(paths.report, ncu_), paths.report);
  const auto& child = *facts.outcome.report;
  NcuRecords mapped = ncu_kernel_records(table, opt.metrics, child.trace);
  log.debug(std::string("ncu results attributed to runs by ") +
            (mapped.attribution == Attribution::kPayload ? "NVTX payload" : "launch order") + " (" +
            std::to_string(mapped.records.size()) + " measured results)");
  log.info("Refer to " + paths.report + " for the NVIDIA Nsight Compute CLI report");
  log.info("Refer to " + paths.log + " for the NVIDIA Nsight Compute CLI logs");

  Part out;
  out.run.output.records = std::move(mapped.records);
  out.run.output.runs = child.runs;
  out.run.output.failures = child.failures;
  out.run.metadata = child.metadata;
  out.session_seconds = child.session_seconds;
  return out;
}

ExternalRun NcuTool::run(const SessionInfo& info, const std::vector<Config>& configs,
                         const Logger& log, const ExternalPartSink& on_part) {
  const Options& opt = *info.options;
  ExternalRun all;
  std::vector<Config> left = configs;
  double budget_s = opt.ncu_part_seconds;
  for (std::size_t part = 0; !left.empty(); ++part) {
    const auto t0 = std::chrono::steady_clock::now();
    // KSCOPE_CHILD_SCOPE carries at most 9 digits: a budget of 11 days is no limit in practice.
    const double budget_ms = std::min(budget_s * 1000, 999'999'999.0);
    Part p;
    try {
      p = run_part(info, left, part, static_cast<std::size_t>(budget_ms), log);
    } catch (const ToolError& e) {
      // ncu or the program killed (the OOM killer, a user) or crashed: which part, from which
      // config, and what the journal already holds.
      const std::size_t journaled = configs.size() - left.size();
      throw ToolError(std::string(e.what()) + "\n(ncu part " + std::to_string(part + 1) +
                      " of session '" + info.name + "', from config " +
                      std::to_string(left.front().index()) + " (" + left.front().label() +
                      ") on; " +
                      (journaled == 0 ? std::string("no part of this session was journaled yet)")
                                      : "the " + std::to_string(journaled) + " config" +
                                            (journaled == 1 ? "" : "s") +
                                            " of the parts before are in the journal, and "
                                            "resume= with it measures the rest)"));
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // What a re-run costs besides its session (ncu and the program starting, the report written
    // and imported): later parts run at least nine times as long, so that start-ups stay within
    // a tenth of the sweep.
    const double startup = std::max(0.0, wall - p.session_seconds);
    budget_s = std::max(opt.ncu_part_seconds, 9 * startup);
    log.debug("ncu part " + std::to_string(part + 1) + ": " + std::to_string(wall) +
              " s, of which the session " + std::to_string(p.session_seconds) + " s");

    std::set<std::size_t> done;
    for (const auto& r : p.run.output.runs) done.insert(r.run.config);
    for (const auto& f : p.run.output.failures) done.insert(f.config);
    std::size_t finished = 0;
    while (finished < left.size() && done.count(left[finished].index()) != 0) ++finished;
    if (finished == 0) {
      throw ToolError("the program re-run under ncu ended its session without measuring config " +
                      std::to_string(left.front().index()) + " (" + left.front().label() +
                      "); see the ncu log above.");
    }
    left.erase(left.begin(), left.begin() + static_cast<std::ptrdiff_t>(finished));

    if (on_part) on_part(p.run);
    auto& out = all.output;
    for (auto& r : p.run.output.runs) out.runs.push_back(std::move(r));
    for (auto& k : std::move(p.run.output.records).take()) out.records.push_back(std::move(k));
    for (auto& f : p.run.output.failures) out.failures.push_back(std::move(f));
    all.metadata = p.run.metadata;
  }
  return all;
}

}  // namespace kscope::ncu
