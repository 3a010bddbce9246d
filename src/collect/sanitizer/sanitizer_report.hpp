#pragma once
// compute-sanitizer's XML report (`--xml --save FILE`) -> kscope::Finding, one per <record>:
// memcheck's precise errors ("Invalid __global__ write of size 4 bytes", with thread, block,
// address, size, source line and the launch's host stack), leaks ("Leaked N bytes", with the
// allocation's host stack), racecheck's analysis records (racing source and destination
// accesses), initcheck's and synccheck's records, records of CUDA API calls that returned an
// error (category kApiErrorCategory), and anything else as its text says. Annotation, config and
// run are left empty: finding_attribution.hpp fills them.

#include <string>
#include <string_view>
#include <vector>

#include "collect/sanitizer/xml_reader.hpp"
#include "kscope/results.hpp"

namespace kscope::sanitizer {

/// compute-sanitizer's record kind of a leak (memcheck --leak-check full).
inline constexpr std::string_view kLeakCategory = "Leak";
/// The category kscope gives compute-sanitizer's records of a CUDA API call that returned an
/// error ("Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on
/// CUDA API call to cudaFree."), whatever their XML <kind>: after a memory error they are its
/// consequences (the CUDA context is unusable), not errors of a kernel.
inline constexpr std::string_view kApiErrorCategory = "ApiError";

[[nodiscard]] bool is_leak(const Finding& f);
[[nodiscard]] bool is_api_error(const Finding& f);
/// An error found in a kernel (memory access, race, uninitialised read, barrier): neither a leak
/// nor a failed CUDA API call. These are what "N errors in M kernels" counts.
[[nodiscard]] bool is_kernel_error(const Finding& f);

/// One record of the report. `check` is the tool that wrote it ("memcheck", ...).
[[nodiscard]] Finding finding_from_record(const XmlElement& record, const std::string& check);

/// Every record of a report's XML text, in file order. Throws kscope::ToolError naming `source`
/// when the text is not well-formed XML or not a compute-sanitizer report.
[[nodiscard]] std::vector<Finding> parse_sanitizer_report(std::string_view xml,
                                                          const std::string& check,
                                                          const std::string& source);

/// Reads and parses the report file at `path`.
[[nodiscard]] std::vector<Finding> read_sanitizer_report(const std::string& path,
                                                         const std::string& check);

/// The kernel a launch-time host stack belongs to: the mangled name behind nvcc's
/// `__device_stub_<mangled>` frame, as a demangled base name; "" when the stack has none (kernels
/// launched through the driver API, e.g. by Triton or CuPy).
[[nodiscard]] std::string kernel_from_launch_stack(const std::vector<std::string>& frame_functions);

}  // namespace kscope::sanitizer
