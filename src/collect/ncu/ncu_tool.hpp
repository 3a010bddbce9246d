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
  [[nodiscard]] ExternalRun run(const SessionInfo& info, const Logger& log) override;

 private:
  std::string ncu_;
  NcuVersion version_;
};

}  // namespace kscope::ncu
