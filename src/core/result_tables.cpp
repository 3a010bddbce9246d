#include "core/result_tables.hpp"

#include "core/config_failure.hpp"
#include "core/extraction.hpp"
#include "core/info_columns.hpp"
#include "core/telemetry_summary.hpp"
#include "core/transformation.hpp"

namespace kscope {

void build_tables(const std::vector<KernelRecord>& records, std::vector<RunLog> runs,
                  Results::Data* d) {
  const Options& opt = d->options;
  drop_failed_configs(d->failures, &runs);
  std::vector<KernelRecord> finished;
  if (!d->failures.empty()) finished = records_of_finished_configs(d->failures, records);
  const auto extracted =
      extract(d->failures.empty() ? records : finished, runs,
              {opt.metrics, opt.ignore_kernel_list, opt.combine_kernel_metrics,
               config_labels(d->configs)});
  d->raw = build_raw_rows(extracted, opt.metrics, opt.derive_metric, d->configs);
  // Without rows (a journal cut before its first runs, a sanitizer session, every config failed)
  // there is nothing to normalize, and no baseline to find.
  d->processed = aggregate(d->raw, d->raw.empty() ? std::string() : opt.normalize_against);
  d->info_columns = add_info_columns(opt.info_collectors, runs, d->raw, d->processed);
  add_telemetry_columns(d->processed, summarize_telemetry(d->telemetry));
  add_failure_rows(d->failures, opt.metrics, processed_info_columns(d->info_columns).size(),
                   &d->processed);
  apply_stops(d->stops, d->processed);
}

}  // namespace kscope
