#pragma once
// The tables of a result from what a session recorded, the same for a session that just ended
// and for a journal read back: extraction (attribution rules, combine, ignore list), derived
// metrics, statistics, the info collectors' columns, the telemetry columns, and the rows of
// failed configs.

#include <vector>

#include "core/kernel_record.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// Fills d->raw, d->processed and d->info_columns from `records` and `runs` with d->options,
/// d->configs, d->telemetry, d->failures (the runs and records of failed configs are dropped
/// first) and d->stops (the StopReason of runs="auto"). Throws ExtractionError when the kernels
/// do not follow the attribution rules. Only reads `records`.
void build_tables(const std::vector<KernelRecord>& records, std::vector<RunLog> runs,
                  Results::Data* d);

}  // namespace kscope
