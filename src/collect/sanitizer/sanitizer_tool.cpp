#include "collect/sanitizer/sanitizer_tool.hpp"

#include <cstdio>

#include "collect/sanitizer/check_summary.hpp"
#include "collect/sanitizer/sanitizer_command.hpp"
#include "collect/sanitizer/sanitizer_diagnosis.hpp"
#include "collect/sanitizer/sanitizer_locator.hpp"
#include "kscope/errors.hpp"
#include "subprocess/reexec_runner.hpp"
#include "subprocess/self_command.hpp"

namespace kscope::sanitizer {
namespace {

// ".config2.stop3" for the narrower runs, "" for the whole sweep.
std::string file_tag(const subprocess::ChildScope& scope) {
  std::string tag;
  if (scope.configs) {
    for (auto c : *scope.configs) tag += ".config" + std::to_string(c);
  }
  if (scope.stop_at > 0) tag += ".stop" + std::to_string(scope.stop_at);
  return tag;
}

std::string part_text(const subprocess::ChildScope& scope) {
  std::string out =
      scope.configs ? "config " + std::to_string(scope.configs->front()) : "all configs";
  if (scope.stop_at > 0) out += ", up to annotation boundary " + std::to_string(scope.stop_at);
  return out;
}

}  // namespace

void SanitizerTool::check_options(const Options& options) {
  if (!options.reexec_unavailable.empty()) {
    throw NotSupportedError(
        subprocess::reexec_unavailable_message("sanitizer", options.reexec_unavailable));
  }
  if (!options.resume.empty()) {
    throw NotSupportedError(
        "resume applies to the measuring tools (cupti, ncu): the sanitizer tool checks the "
        "whole sweep, each check in its own re-run, and journals each check's findings as it "
        "ends. Leave resume empty with tool 'sanitizer'.");
  }
}

std::unique_ptr<ExternalTool> SanitizerTool::create(const Options& /*options*/) {
  std::string sanitizer = locate_compute_sanitizer();
  std::string version = query_sanitizer_version(sanitizer);
  return std::make_unique<SanitizerTool>(std::move(sanitizer), std::move(version));
}

CheckRun SanitizerTool::run_program(const SessionInfo& info,
                                    const std::vector<std::string>& program,
                                    const std::string& check, const subprocess::ChildScope& scope,
                                    const Logger& log) {
  const Options& opt = *info.options;
  SanitizerRunFacts facts;
  facts.files = sanitizer_files(info.output_prefix, check, info.name, info.id, file_tag(scope));
  facts.check = check;
  facts.part = part_text(scope);
  facts.print_limit = opt.sanitizer.print_limit;
  facts.marker = subprocess::ChildMarker{info.name, info.id, facts.files.child_report};
  SanitizerCommand command;
  command.check = check;
  // Leaks are only meaningful when the run went to its end.
  command.leak_check = opt.sanitizer.leak_check && check == "memcheck" && scope.stop_at == 0;
  command.print_limit = opt.sanitizer.print_limit;

  subprocess::ReexecRequest request;
  request.argv = sanitizer_argv(sanitizer_, command, facts.files, program);
  request.marker = facts.marker;
  request.environment = scope.environment();
  // A report or log of an earlier run must not pass for this run's.
  (void)std::remove(facts.files.xml.c_str());
  (void)std::remove(facts.files.log.c_str());
  log.debug("compute-sanitizer (" + facts.part +
            "): " + subprocess::command_line_text(request.argv));
  facts.outcome = subprocess::run_reexec(request);
  CheckRun run = interpret_sanitizer_run(facts);
  if (!metadata_ && facts.outcome.report) metadata_ = facts.outcome.report->metadata;
  return run;
}

ExternalRun SanitizerTool::run(const SessionInfo& info, const std::vector<Config>& configs,
                               const Logger& log, const ExternalPartSink& on_part) {
  (void)configs;  // always the whole sweep: check_options() refuses resume
  const Options& opt = *info.options;
  const std::vector<std::string> program = subprocess::self_command(opt, "sanitizer");
  if (opt.runs > 1 || opt.warmup_runs > 0) {
    log.info(
        "compute-sanitizer checks each config once (runs and warmup_runs apply to the "
        "measuring tools)");
  }
  ExternalRun out;
  for (const auto& check : opt.sanitizer.checks) {
    log.info("Checking session '" + info.name + "' with compute-sanitizer " + version_ + " (" +
             check + (check == "memcheck" && opt.sanitizer.leak_check ? ", leak check" : "") + ")");
    const CheckOutcome o = attribute_check(
        check, info.num_configs, [&](const std::string& c, const subprocess::ChildScope& scope) {
          return run_program(info, program, c, scope, log);
        });
    for (const auto& note : o.notes) log.warn(note);
    if (o.truncated) log.warn(truncation_warning(check, opt.sanitizer.print_limit));
    log.debug(check + ": the program ran " + std::to_string(o.program_runs) +
              " time(s) under compute-sanitizer");
    log.info(check_summary(check, o.findings));
    if (on_part) {
      ExternalRun part;
      part.findings = o.findings;
      if (metadata_) part.metadata = *metadata_;
      on_part(part);
    }
    out.findings.insert(out.findings.end(), o.findings.begin(), o.findings.end());
  }
  if (metadata_) out.metadata = *metadata_;
  const std::string files = sanitizer_files(info.output_prefix, "<check>", info.name, info.id).xml;
  log.info("Refer to " + files + " for compute-sanitizer's reports");
  return out;
}

}  // namespace kscope::sanitizer
