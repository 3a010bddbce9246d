#include "api/session_tables.hpp"

#include <utility>

#include "api/output_prefix.hpp"
#include "core/config_failure.hpp"
#include "core/kernel_spans.hpp"
#include "core/result_tables.hpp"
#include "core/telemetry_summary.hpp"

namespace kscope {
namespace {

// With Options::output_csv, writes the raw and processed CSV files under `prefix` and says where.
void write_csv_files(const Results& results, const std::string& prefix, const Logger& log) {
  if (!results.options().output_csv) return;
  const auto paths = results.write_csv(prefix);
  log.info("Refer to " + paths[0] + " for the raw profiling data");
  log.info("Refer to " + paths[1] + " for the processed profiling data");
  if (paths.size() > 2) log.info("Refer to " + paths[2] + " for compute-sanitizer's findings");
}

}  // namespace

Results::Data session_data(std::string_view name, int id, const Options& options,
                           const std::vector<Config>& configs) {
  Results::Data d;
  d.name = std::string(name);
  d.id = id;
  d.options = options;
  d.parameters = configs.front().names();
  d.configs = configs;
  return d;
}

void fill_tables(Session::Output& out, const Logger& log, Results::Data* d) {
  log.info("Processing profiled data");
  d->failures = std::move(out.failures);
  d->stops = std::move(out.stops);
  // Packed (kscope/timeline.hpp), and the session's own copy given back.
  d->timeline.phases = PhaseSpans(out.phases.begin(), out.phases.end());
  std::vector<PhaseSpan>().swap(out.phases);
  d->timeline.kernels = kernel_spans(out.records.all());
  build_tables(out.records.all(), std::move(out.runs), d);
  if (!d->failures.empty()) log.warn(failure_summary(d->failures, d->configs));
}

std::string start_session(Results::Data* d, const std::vector<Config>& to_measure,
                          const ResumePlan* resume, const Logger& log,
                          std::unique_ptr<report::JournalWriter>* journal) {
  const std::string prefix = resolve_output_prefix(d->options.output_prefix);
  d->journal_path = prefix + "journal-" + d->name + "-" + std::to_string(d->id) + ".jsonl";
  *journal = open_journal(*d, resume);
  log.box("Profiling " + d->name, std::to_string(to_measure.size()) + " configurations, " +
                                      std::to_string(d->options.runs) + " runs each");
  log.info("Journal: " + d->journal_path);
  return prefix;
}

Results end_session(Results::Data d, Session::Output& out, ResumePlan* resume,
                    report::JournalWriter& journal, const std::string& prefix, const Logger& log,
                    HostTimes* times) {
  if (resume) out = merge_resumed(std::move(*resume), std::move(out));
  fill_tables(out, log, &d);
  if (times) times->step("tables");
  journal.finish();  // the journal's last line was written meanwhile
  if (times) times->step("journal finish");
  if (auto warning = throttle_warning(summarize_telemetry(d.telemetry), d.configs)) {
    log.warn(*warning);
  }
  Results results(std::move(d));
  write_csv_files(results, prefix, log);
  if (times) {
    times->step("csv");
    log.debug(times->fixed_cost_summary());
  }
  return results;
}

}  // namespace kscope
