#pragma once
// The ncu command lines kscope runs: the profiling run that re-executes the program, and the
// import of its report as raw-page CSV. Built as argument vectors (never shell text).

#include <string>
#include <vector>

#include "collect/ncu/ncu_version.hpp"
#include "kscope/options.hpp"

namespace kscope::ncu {

/// Files of one ncu session: <prefix>ncu-output-<name>-<id>.{ncu-rep,log,child.json} for its
/// first part (a re-run of the program), <prefix>ncu-output-<name>-<id>-part<N>.* for part N >= 2.
struct NcuPaths {
  std::string report;        ///< the .ncu-rep ncu writes (-o)
  std::string log;           ///< ncu's own output (--log-file)
  std::string child_report;  ///< what the re-executed program reports (subprocess::ChildReport)
};
[[nodiscard]] NcuPaths ncu_paths(const std::string& prefix, const std::string& name, int id,
                                 std::size_t part = 0);

/// The NVTX filter: every start/end range of kscope's domain ("regex:kscope@.+"; no trailing
/// '/', which would select push/pop ranges).
[[nodiscard]] std::string ncu_nvtx_filter();

/// `ncu --nvtx --nvtx-include <filter> --metrics <m1,m2> --replay-mode <kernel|range>
///  --cache-control <all|none> --clock-control <base|none> --target-processes all
///  -f -o <report> --log-file <log> <program...>`
[[nodiscard]] std::vector<std::string> ncu_profile_argv(const std::string& ncu,
                                                        const Options& options,
                                                        const NcuPaths& paths,
                                                        const std::vector<std::string>& program);

/// `ncu --import <report> --csv --page raw --print-units base`: base units (ns, byte), not
/// ncu's auto-scaled ones.
[[nodiscard]] std::vector<std::string> ncu_import_argv(const std::string& ncu,
                                                       const std::string& report);

/// The oldest ncu kscope runs at all, and the oldest with range replay.
inline constexpr NcuVersion kNcuMinimumVersion{2021, 1, 0, 0};
inline constexpr NcuVersion kNcuRangeReplayVersion{2022, 1, 0, 0};

/// Throws kscope::NotSupportedError when `version` is too old for what `options` ask (naming the
/// option, the version needed and the upgrade).
void check_ncu_supports(const NcuVersion& version, const Options& options);

}  // namespace kscope::ncu
