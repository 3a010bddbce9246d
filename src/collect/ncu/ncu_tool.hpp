#pragma once
// The ncu tool: re-runs the program under the Nsight Compute CLI with an NVTX filter on kscope's
// domain, then reads ncu's report into KernelRecords. See docs/tools/ncu.md.

#include <memory>
#include <string>

#include "collect/external_tool.hpp"
#include "collect/ncu/ncu_version.hpp"

namespace kscope::ncu {

class NcuTool : public ExternalTool {
 public:
  /// Pre-GPU checks: a program that cannot be re-executed (a notebook) cannot use ncu.
  static void check_options(const Options& options);
  /// Finds ncu and checks its version against `options`.
  [[nodiscard]] static std::unique_ptr<ExternalTool> create(const Options& options);

  NcuTool(std::string ncu, NcuVersion version) : ncu_(std::move(ncu)), version_(version) {}

  [[nodiscard]] std::string version() const override { return version_.to_string(); }
  /// Re-runs the program in parts: each re-run measures configs until `ncu_part_seconds` (or
  /// nine times the measured start-up cost of a re-run, whichever is longer) have passed, ends at
  /// that config boundary, and its part is handed over before the next re-run starts.
  [[nodiscard]] ExternalRun run(const SessionInfo& info, const std::vector<Config>& configs,
                                const Logger& log, const ExternalPartSink& on_part) override;

 private:
  struct Part {
    ExternalRun run;
    double session_seconds = 0;
  };
  Part run_part(const SessionInfo& info, const std::vector<Config>& configs, std::size_t part,
                std::size_t budget_ms, const Logger& log);
  std::string ncu_;
  NcuVersion version_;
};

}  // namespace kscope::ncu
