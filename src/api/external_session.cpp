#include "api/external_session.hpp"

#include <chrono>

#include "api/device_lock.hpp"
#include "api/session_tables.hpp"
#include "core/logger.hpp"

namespace kscope {

Results profile_external(const ToolEntry& tool, std::string_view name, int id,
                         const std::vector<Config>& configs, const Options& opt,
                         SweepPlan plan, const std::string& gpu_uuid) {
  std::optional<ResumePlan>& resume = plan.resume;
  Results::Data d = session_data(name, id, opt, configs);
  const Logger log(opt);
  auto external = tool.make_external(opt);
  d.metadata.tool = tool.name;
  d.metadata.tool_version = external->version();
  if (tool.duration_definition) d.metadata.duration_definition = tool.duration_definition(opt);
  const std::vector<Config>& to_measure = plan.to_measure;
  std::unique_ptr<report::JournalWriter> journal;
  const std::string prefix =
      start_session(&d, to_measure, resume ? &*resume : nullptr, log, &journal);
  const SessionInfo info{d.name, d.id, to_measure.size(), &opt, 0, prefix};
  const auto t0 = std::chrono::steady_clock::now();
  // Every part is journaled as soon as the tool has read it; the device the child ran on is
  // known from the first part.
  bool have_metadata = false;
  auto on_part = [&](const ExternalRun& part) {
    if (!have_metadata && !part.metadata.gpu.empty()) {
      Metadata m = part.metadata;
      m.tool = d.metadata.tool;
      m.tool_version = d.metadata.tool_version;
      m.duration_definition = d.metadata.duration_definition;
      journal->append_metadata(m);
      have_metadata = true;
    }
    if (!part.output.runs.empty() || !part.output.records.empty()) {
      journal->append(part.output.runs, part.output.records.all());
    }
    for (const auto& f : part.output.failures) journal->append_failure(f);
    if (!part.findings.empty()) journal->append_findings(part.findings);
  };
  ExternalRun run;
  try {
    if (!to_measure.empty()) {
      const auto lock = lock_for_shard(plan.shard, gpu_uuid, log);
      run = external->run(info, to_measure, log, on_part);
    }
  } catch (const std::exception& e) {
    journal->close(e.what());
    throw;
  }
  journal->close("");
  journal->finish();
  const std::string tool_name = d.metadata.tool;
  const std::string tool_version = d.metadata.tool_version;
  const std::string duration_definition = d.metadata.duration_definition;
  if (!run.metadata.gpu.empty() || !resume) d.metadata = run.metadata;
  d.metadata.tool = tool_name;
  d.metadata.tool_version = tool_version;
  d.metadata.duration_definition = duration_definition;
  d.metadata.shard_index = static_cast<int>(plan.shard.index);
  d.metadata.shard_count = static_cast<int>(plan.shard.count);
  d.findings = std::move(run.findings);
  d.checked = tool.checks;
  d.metadata.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log.info("Profiling completed successfully !");

  return end_session(std::move(d), run.output, resume ? &*resume : nullptr, *journal, prefix, log);
}

}  // namespace kscope
