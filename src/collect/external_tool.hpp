#pragma once
// The interface of the re-executing tools (ncu, compute-sanitizer). They do not measure in this
// process: they re-run the program under an external tool, whose child runs the session with a
// passive collector (subprocess/child_collector.hpp), and they turn the tool's report into the
// same records and run logs an in-process session produces. profile() then runs the usual
// extraction, so results do not depend on the tool.

#include <functional>
#include <string>
#include <vector>

#include "core/logger.hpp"
#include "core/session.hpp"
#include "kscope/results.hpp"

namespace kscope {

/// What a re-executing tool hands back to profile().
struct ExternalRun {
  Session::Output output;  ///< records (already attributed to annotation and run), run logs, failures
  Metadata metadata;       ///< the device and host the child ran on
  std::vector<Finding> findings;  ///< what a checking tool (sanitizer) found; Results::findings
};

/// Receives each finished part of an external run as soon as it is known (profile() journals
/// it), so that a sweep killed between parts keeps the parts before.
using ExternalPartSink = std::function<void(const ExternalRun& part)>;

class ExternalTool {
 public:
  virtual ~ExternalTool() = default;
  /// Version of the external tool (e.g. "2025.3.1.0").
  [[nodiscard]] virtual std::string version() const = 0;
  /// Re-runs the program for session `info` (name, id, options, output prefix) to measure
  /// `configs` (all of the sweep, or what a resumed sweep has left; Config::index() numbers them
  /// in the sweep), hands every finished part to `on_part` and returns all of them together.
  /// Throws kscope errors a user can act on.
  [[nodiscard]] virtual ExternalRun run(const SessionInfo& info, const std::vector<Config>& configs,
                                        const Logger& log, const ExternalPartSink& on_part) = 0;
};

}  // namespace kscope
