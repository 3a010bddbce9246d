#include "collect/ncu/ncu_command.hpp"

#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"

namespace kscope::ncu {

NcuPaths ncu_paths(const std::string& prefix, const std::string& name, int id, std::size_t part) {
  std::string stem = prefix + "ncu-output-" + name + "-" + std::to_string(id);
  if (part > 0) stem += "-part" + std::to_string(part + 1);
  return NcuPaths{stem + ".ncu-rep", stem + ".log", stem + ".child.json"};
}

std::string ncu_nvtx_filter() { return std::string("regex:") + kNvtxDomain + "@.+"; }

namespace {
// ncu expands file name macros in -o (%p the process id, %h the host name, %q{VAR} an
// environment variable, %i a counter, %% a literal %): an output prefix or session name
// containing % must reach it as %%, so that the report lands where kscope reads it. --log-file
// takes its path as it is (ncu 2025.3.1 refused "%%" there: "cannot be used as the output log
// file").
std::string ncu_file_argument(const std::string& path) {
  std::string out;
  for (char c : path) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}
}  // namespace

std::vector<std::string> ncu_profile_argv(const std::string& ncu, const Options& options,
                                          const NcuPaths& paths,
                                          const std::vector<std::string>& program) {
  std::string metrics;
  for (const auto& m : options.metrics) metrics += (metrics.empty() ? "" : ",") + m;
  std::vector<std::string> argv = {ncu,
                                   "--nvtx",
                                   "--nvtx-include",
                                   ncu_nvtx_filter(),
                                   "--metrics",
                                   metrics,
                                   "--replay-mode",
                                   options.replay_mode,
                                   "--cache-control",
                                   options.cache_control,
                                   "--clock-control",
                                   options.clock_control,
                                   // ncu's default, spelled out: a Python interpreter started
                                   // through a wrapper (pyenv shims, conda) is a child process.
                                   "--target-processes",
                                   "all",
                                   "-f",
                                   "-o",
                                   ncu_file_argument(paths.report),
                                   "--log-file",
                                   paths.log};
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

std::vector<std::string> ncu_import_argv(const std::string& ncu, const std::string& report) {
  // --csv alone prints base units when profiling, but with --import ncu 2025.3 scales them
  // ("us", "Mbyte"); ask for base units explicitly.
  return {ncu, "--import", report, "--csv", "--page", "raw", "--print-units", "base"};
}

void check_ncu_supports(const NcuVersion& version, const Options& options) {
  auto too_old = [&](const std::string& what, const NcuVersion& needed) {
    throw NotSupportedError("ncu " + version.to_string() + " is too old for " + what + " (needs " +
                            needed.to_string() + " or newer). Install a newer Nsight Compute and "
                            "put it first on PATH or set KSCOPE_NCU to it.");
  };
  if (version < kNcuMinimumVersion) too_old("kscope's ncu tool", kNcuMinimumVersion);
  if (options.replay_mode == "range" && version < kNcuRangeReplayVersion) {
    too_old("replay_mode 'range' (--replay-mode range)", kNcuRangeReplayVersion);
  }
}

}  // namespace kscope::ncu
