#include "collect/ncu/ncu_record_mapper.hpp"

#include "collect/ncu/ncu_diagnosis.hpp"
#include "core/annotation_registry.hpp"
#include "core/kernel_name.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

const NvtxRange* kscope_range(const NcuResult& r) {
  for (const auto& range : r.start_end) {
    if (range.domain == kNvtxDomain) return &range;
  }
  return nullptr;
}

KernelRecord record_of(const NcuRawTable& table, const NcuResult& r, const std::string& annotation,
                       const std::vector<long>& columns, const std::vector<std::string>& metrics) {
  KernelRecord k;
  k.annotation = annotation;
  k.kernel = r.kernel == "range" ? r.kernel : kernel_base_name(r.kernel);
  k.mangled = r.kernel;
  k.device = r.device;
  k.sequence = static_cast<std::uint64_t>(r.id);
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const auto c = static_cast<std::size_t>(columns[i]);
    const std::string& unit = table.unit(c);
    k.metrics.push_back(Measurement{metrics[i], table.number(r, c),
                                    unit.empty() ? std::nullopt : std::optional<std::string>(unit)});
  }
  return k;
}

}  // namespace

void check_metrics_present(const NcuRawTable& table, const std::vector<std::string>& metrics) {
  if (table.results().empty()) return;
  std::vector<std::string> missing;
  for (const auto& m : metrics) {
    if (table.find_column(m) < 0) missing.push_back(m);
  }
  if (!missing.empty()) {
    throw InvalidArgument(invalid_metrics_message(
        missing, "the ncu report '" + table.source() +
                     "' has no such column (ncu ends successfully for metric names it does not "
                     "know, so kscope checks the report)."));
  }
}

NcuRecords ncu_kernel_records(const NcuRawTable& table, const std::vector<std::string>& metrics,
                              const std::vector<subprocess::AnnotationEntry>& trace) {
  check_metrics_present(table, metrics);
  std::vector<long> columns;
  for (const auto& m : metrics) columns.push_back(table.find_column(m));

  std::vector<const NcuResult*> ours;
  bool any_payload = false;
  for (const auto& r : table.results()) {
    const NvtxRange* range = kscope_range(r);
    if (!range) continue;  // the NVTX filter selects kscope's ranges only; be safe anyway
    ours.push_back(&r);
    any_payload = any_payload || range->payload.has_value();
  }

  NcuRecords out;
  if (any_payload) {
    out.attribution = Attribution::kPayload;
    for (const NcuResult* r : ours) {
      const NvtxRange* range = kscope_range(*r);
      RunId run;
      // No payload: the annotation was entered in a warm-up run (or outside a session).
      if (!range->payload || !AnnotationRegistry::decode_payload(*range->payload, &run)) continue;
      KernelRecord k = record_of(table, *r, range->name, columns, metrics);
      k.run = run;
      out.records.push_back(std::move(k));
    }
    return out;
  }

  // Launch order: consecutive results of one range instance (ncu's range id) belong to one
  // annotation entry; entries without kernels are skipped by name.
  out.attribution = Attribution::kLaunchOrder;
  std::size_t next = 0;
  const NvtxRange* previous = nullptr;
  RunId run;
  for (const NcuResult* r : ours) {
    const NvtxRange* range = kscope_range(*r);
    const bool same_instance = previous && previous->name == range->name &&
                               previous->id == range->id && !range->id.empty();
    if (!same_instance) {
      while (next < trace.size() && trace[next].annotation != range->name) ++next;
      if (next == trace.size()) {
        throw ExtractionError(
            "cannot attribute ncu result " + std::to_string(r->id) + " (kernel '" + r->kernel +
            "' in annotation '" + range->name + "') to a run: the re-run program entered no "
            "further annotation of that name. The report shows no NVTX payload, so kscope "
            "matches results to annotations in launch order; kernels launched inside kscope "
            "annotations outside kscope::profile break that order.");
      }
      run = trace[next++].run;
    }
    previous = range;
    if (run.warmup) continue;
    KernelRecord k = record_of(table, *r, range->name, columns, metrics);
    k.run = run;
    out.records.push_back(std::move(k));
  }
  return out;
}

}  // namespace kscope::ncu
