#pragma once
// Maps the results of an ncu report made by the ncu tool to kscope's KernelRecords: which
// annotation, config and run each kernel (or range) belongs to. The primary key is the NVTX
// payload kscope puts on every annotation (AnnotationRegistry::nvtx_payload: config and run);
// when the report shows no payload, results are matched in launch order against the child's
// annotation trace.

#include <string>
#include <vector>

#include "collect/ncu/ncu_raw_table.hpp"
#include "core/kernel_record.hpp"
#include "subprocess/child_report.hpp"

namespace kscope::ncu {

enum class Attribution {
  kPayload,      ///< config/run decoded from the NVTX payload of each result's range
  kLaunchOrder,  ///< results matched to the child's annotation trace in order
};

struct NcuRecords {
  std::vector<KernelRecord> records;  ///< warm-up results are dropped
  Attribution attribution = Attribution::kPayload;
};

/// Every requested metric must be a column of the report (ncu exits 0 for names it does not
/// know); throws kscope::InvalidArgument with the reference's "Invalid value [...] for 'metrics'
/// parameter" text naming the missing ones. A report without results has no columns to check.
void check_metrics_present(const NcuRawTable& table, const std::vector<std::string>& metrics);

/// Records of the results inside start/end ranges of kscope's NVTX domain, with the requested
/// metrics and ncu's units; kernel names reduced to their base name. Throws
/// kscope::ExtractionError when a result cannot be attributed in launch order.
[[nodiscard]] NcuRecords ncu_kernel_records(const NcuRawTable& table,
                                            const std::vector<std::string>& metrics,
                                            const std::vector<subprocess::AnnotationEntry>& trace);

}  // namespace kscope::ncu
