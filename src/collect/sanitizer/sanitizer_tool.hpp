#pragma once
// The sanitizer tool: re-runs the program under compute-sanitizer once per check
// (Options::sanitizer.checks), each config once, and attributes every finding to the annotation,
// config and run in which its kernel was launched (finding_attribution.hpp). Its Results have no
// measurements, only findings. See docs/tools/sanitizer.md.

#include <memory>
#include <string>

#include "collect/external_tool.hpp"
#include "collect/sanitizer/finding_attribution.hpp"

namespace kscope::sanitizer {

class SanitizerTool : public ExternalTool {
 public:
  /// Pre-GPU checks: a program that cannot be re-executed (a notebook) cannot be sanitized.
  static void check_options(const Options& options);
  /// Finds compute-sanitizer (throws kscope::ToolError saying how to install it when missing).
  [[nodiscard]] static std::unique_ptr<ExternalTool> create(const Options& options);

  SanitizerTool(std::string sanitizer, std::string version)
      : sanitizer_(std::move(sanitizer)), version_(std::move(version)) {}

  [[nodiscard]] std::string version() const override { return version_; }
  /// Runs each check over `configs` (the whole sweep: the sanitizer tool does not resume) and
  /// hands over each check's findings once the check is done.
  [[nodiscard]] ExternalRun run(const SessionInfo& info, const std::vector<Config>& configs,
                                const Logger& log, const ExternalPartSink& on_part) override;

 private:
  CheckRun run_program(const SessionInfo& info, const std::vector<std::string>& program,
                       const std::string& check, const subprocess::ChildScope& scope,
                       const Logger& log);

  std::string sanitizer_;
  std::string version_;
  std::optional<Metadata> metadata_;  // of the first child that reported
};

}  // namespace kscope::sanitizer
