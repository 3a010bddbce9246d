#include "collect/ncu/ncu_tool.hpp"

#include <cstdio>
#include <filesystem>

#include "collect/ncu/ncu_command.hpp"
#include "collect/ncu/ncu_diagnosis.hpp"
#include "collect/ncu/ncu_locator.hpp"
#include "collect/ncu/ncu_log.hpp"
#include "collect/ncu/ncu_raw_table.hpp"
#include "collect/ncu/ncu_record_mapper.hpp"
#include "collect/ncu/ncu_report_text.hpp"
#include "kscope/errors.hpp"
#include "subprocess/reexec_runner.hpp"
#include "subprocess/self_command.hpp"

namespace kscope::ncu {

void NcuTool::check_options(const Options& options) {
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

ExternalRun NcuTool::run(const SessionInfo& info, const Logger& log) {
  const Options& opt = *info.options;
  const NcuPaths paths = ncu_paths(info.output_prefix, info.name, info.id);
  subprocess::ReexecRequest request;
  request.argv = ncu_profile_argv(ncu_, opt, paths, subprocess::self_command(opt, "ncu"));
  request.marker = subprocess::ChildMarker{info.name, info.id, paths.child_report};
  // A report or log of an earlier run must not pass for this run's.
  (void)std::remove(paths.report.c_str());
  (void)std::remove(paths.log.c_str());
  log.info("Re-running the program under ncu " + version_.to_string() + " for session '" +
           info.name + "'");
  log.debug("NCU command: " + subprocess::command_line_text(request.argv));

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

  ExternalRun out;
  out.output.records = std::move(mapped.records);
  out.output.runs = child.runs;
  out.metadata = child.metadata;
  return out;
}

}  // namespace kscope::ncu
