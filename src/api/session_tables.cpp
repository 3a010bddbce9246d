#include "api/session_tables.hpp"

#include "core/extraction.hpp"
#include "core/info_columns.hpp"
#include "core/transformation.hpp"

namespace kscope {

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

void fill_tables(const Session::Output& out, const Logger& log, Results::Data* d) {
  const Options& opt = d->options;
  log.info("Processing profiled data");
  const auto extracted = extract(out.records, out.runs,
                                 {opt.metrics, opt.ignore_kernel_list, opt.combine_kernel_metrics,
                                  config_labels(d->configs)});
  d->raw = build_raw_rows(extracted, opt.metrics, opt.derive_metric, d->configs);
  d->processed = aggregate(d->raw, opt.normalize_against);
  d->info_columns = add_info_columns(opt.info_collectors, out.runs, d->raw, d->processed);
}

void write_csv_files(const Results& results, const std::string& prefix, const Logger& log) {
  if (!results.options().output_csv) return;
  const auto paths = results.write_csv(prefix);
  log.info("Refer to " + paths[0] + " for the raw profiling data");
  log.info("Refer to " + paths[1] + " for the processed profiling data");
  if (paths.size() > 2) log.info("Refer to " + paths[2] + " for compute-sanitizer's findings");
}

}  // namespace kscope
