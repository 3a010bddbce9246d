#pragma once
// Turns decoded range-profiler ranges into kscope KernelRecords. Auto ranges carry only a running
// index, so the k-th range of a CUPTI session belongs to the k-th kernel launch the launch
// callbacks saw in that session; user ranges carry the annotation name they were pushed with.
// Pure functions over plain data, unit-tested without a GPU.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope::cupti {

/// One kernel launch seen by the launch callbacks inside a CUPTI session.
struct ProfiledLaunch {
  std::string annotation;     ///< "" when launched outside every annotation of a measured run
  std::string mangled;        ///< the kernel symbol of the launch ("" when unknown)
  bool graph = false;         ///< cuGraphLaunch: its kernels are invisible to the callback
  std::uint64_t sequence = 0; ///< launch order in the session
  RunId run{};                ///< the run it belongs to (a batch may span several runs)
};

/// One range of a decoded counter data image: its name and its values in MetricColumns order.
struct DecodedRange {
  std::string name;
  std::vector<double> values;
};

/// The metrics evaluated for every range, with their units as ncu prints them.
struct MetricColumns {
  std::vector<std::string> names;
  std::vector<std::string> units;
};

/// Where a CUPTI session ran, for messages and user-range records: the run it belongs to (the
/// first one of a batch spanning several, `last_run` the last one) and what it covered
/// ("annotation 'vadd'", "the run", "a batch of measured runs").
struct SessionPlace {
  RunId run;
  int device = 0;
  std::string what;
  std::optional<RunId> last_run{};
  std::size_t capacity = 0;  ///< ranges per pass the profiler was set up for (0: not checked)
};

/// Throws NotSupportedError when a CUDA graph was launched in an auto-range session: its kernels
/// are invisible to the launch callbacks, so auto ranges cannot be matched.
void check_no_graph_launch(const std::vector<ProfiledLaunch>& launches, const SessionPlace& place);

/// Records of the annotated launches of an auto-range session or batch, each in its launch's run
/// (launches outside annotations are profiled but dropped). Throws as check_no_graph_launch, and
/// ToolError when CUPTI dropped ranges or produced a different number of ranges than there were
/// launches.
[[nodiscard]] std::vector<KernelRecord> attribute_auto_ranges(
    const std::vector<ProfiledLaunch>& launches, const std::vector<DecodedRange>& ranges,
    std::size_t dropped, const MetricColumns& columns, const SessionPlace& place);

/// Records of a user-range session, one per annotation pushed (`pushed`, in order), kernel name
/// "range". Throws ToolError when ranges were dropped or do not match the pushed names.
[[nodiscard]] std::vector<KernelRecord> attribute_user_ranges(
    const std::vector<std::string>& pushed, const std::vector<DecodedRange>& ranges,
    std::size_t dropped, const MetricColumns& columns, const SessionPlace& place);

}  // namespace kscope::cupti
