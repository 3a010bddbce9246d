#include "api/external_session.hpp"

#include <chrono>

#include "api/output_prefix.hpp"
#include "api/session_tables.hpp"
#include "core/logger.hpp"
#include "report/journal.hpp"

namespace kscope {

Results profile_external(const ToolEntry& tool, std::string_view name, int id,
                         const std::vector<Config>& configs, const Options& opt) {
  Results::Data d = session_data(name, id, opt, configs);
  const Logger log(opt);
  auto external = tool.make_external(opt);
  const std::string prefix = resolve_output_prefix(opt.output_prefix);
  log.box("Profiling " + d.name, std::to_string(configs.size()) + " configurations, " +
                                     std::to_string(opt.runs) + " runs each");
  const SessionInfo info{d.name, d.id, configs.size(), &opt, 0, prefix};
  const auto t0 = std::chrono::steady_clock::now();
  ExternalRun run = external->run(info, log);
  d.metadata = run.metadata;
  d.findings = std::move(run.findings);
  d.metadata.tool = tool.name;
  d.metadata.tool_version = external->version();
  d.metadata.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  d.journal_path = prefix + "journal-" + d.name + "-" + std::to_string(d.id) + ".jsonl";
  {
    report::JournalWriter journal(d.journal_path, d);
    journal.append(run.output.runs, run.output.records);
    if (!d.findings.empty()) journal.append_findings(d.findings);
    journal.close("");
  }
  log.info("Journal: " + d.journal_path);
  log.info("Profiling completed successfully !");

  fill_tables(run.output, log, &d);
  Results results(std::move(d));
  write_csv_files(results, prefix, log);
  return results;
}

}  // namespace kscope
