#include "collect/ncu/ncu_diagnosis.hpp"

#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

std::string quoted_errors(const NcuLog& log, const std::string& log_path) {
  std::string out;
  for (const auto& e : log.errors) out += "  ==ERROR== " + e + "\n";
  return out + "(ncu's full log: " + log_path + ")";
}

// What ncu was doing last (the kernel it was profiling) and the program's stderr tail.
std::string failure_context(const NcuLog& log, const subprocess::ProcessResult& process) {
  std::string out;
  if (!log.progress_tail.empty()) {
    out += "\nncu's last progress lines:\n";
    for (const auto& p : log.progress_tail) out += "  ==PROF== " + p + "\n";
  }
  out += process.stderr_tail.empty()
             ? std::string("\nThe program printed nothing on stderr (its stdout is not kept).")
             : "\nLast lines of the program's stderr:\n" + process.stderr_text();
  return out;
}

}  // namespace

std::string invalid_metrics_message(const std::vector<std::string>& metrics,
                                    const std::string& detail) {
  std::string list;
  for (const auto& m : metrics) list += (list.empty() ? "'" : ", '") + m + "'";
  return "Invalid value [" + list + "] for 'metrics' parameter: " + detail +
         "\nPlease refer to `ncu --query-metrics` for the list of "
         "supported metrics.";
}

void diagnose_ncu_run(const NcuRunFacts& f) {
  const auto& process = f.outcome.process;
  if (process.timed_out) {
    throw ToolError("ncu did not finish (" + process.status_text() + ") and was stopped. Its log: " +
                    f.paths.log);
  }
  if (f.log.counter_permission_denied) {
    throw ToolError(
        "ncu cannot read the GPU performance counters (ERR_NVGPUCTRPERM): the NVIDIA driver "
        "restricts them to administrators. Run as root, or allow all users by setting the driver "
        "option NVreg_RestrictProfilingToAdminUsers=0 (a line 'options nvidia "
        "NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/nvidia-profiling.conf, then "
        "reload the driver or reboot); see https://developer.nvidia.com/ERR_NVGPUCTRPERM. In "
        "containers the host's setting applies. Tool 'cupti' times kernels without counter "
        "access.\n" + quoted_errors(f.log, f.paths.log));
  }
  if (f.log.unknown_metric_error) {
    const auto& names = f.log.unknown_metrics.empty() ? f.metrics : f.log.unknown_metrics;
    throw InvalidArgument(invalid_metrics_message(
        names, "ncu does not know it.\n" + quoted_errors(f.log, f.paths.log)));
  }
  // The program's own failure (its benchmark threw, no GPU) explains everything after it.
  if (f.outcome.report && !f.outcome.report->error.empty()) {
    subprocess::check_child_outcome(f.outcome, f.marker, "ncu");
  }
  if (!process.succeeded() || !f.log.errors.empty()) {
    throw ToolError(
        "ncu " + (process.succeeded() ? std::string("reported errors") : "ended with " + process.status_text()) +
        " while profiling session '" + f.marker.name + "':\n" + quoted_errors(f.log, f.paths.log) +
        failure_context(f.log, process));
  }
  subprocess::check_child_outcome(f.outcome, f.marker, "ncu");
  // ncu writes NVTX range names into its quoted CSV cells without escaping them: a name with
  // '"' makes the cell unreadable, so say so rather than fail to parse it.
  for (const auto& e : f.outcome.report->trace) {
    if (e.annotation.find('"') != std::string::npos) {
      throw NotSupportedError("annotation '" + e.annotation +
                              "' contains '\"', which ncu's report cannot carry (its NVTX column "
                              "does not escape quotes). Rename the annotation, or use tool "
                              "'cupti'.");
    }
  }
  if (!f.report_exists) {
    if (f.log.no_kernels_profiled) {
      throw ExtractionError(
          "No kernels were profiled: ncu found no kernel launched inside a kscope annotation "
          "(NVTX filter " + ncu_nvtx_filter() + "). Launch the kernels to measure inside "
          "kscope::Annotation scopes (Python: kscope.annotate) within the benchmark. ncu's log: " +
          f.paths.log);
    }
    throw ToolError("ncu finished but wrote no report at '" + f.paths.report + "'. Its log: " +
                    f.paths.log);
  }
}

}  // namespace kscope::ncu
