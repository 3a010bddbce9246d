#pragma once
// How much of its session a re-executed child runs, for a tool that re-runs the program more than
// once to find where something happened (the sanitizer tool). The parent can restrict the child
// to some configs, have it run each config once as a check rather than a measurement, stop it at
// an annotation boundary (the n-th annotation entered or left during its runs), and have it
// release the device when it ends (an external tool finalises its report when the CUDA context
// is destroyed: compute-sanitizer's leak check happens there). Carried in KSCOPE_CHILD_SCOPE next
// to the child marker, e.g. "configs=2;once;stop=3;release" or "configs=4,5,6;budget=60000"; absent or empty: the whole session
// as the program asks for it.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kscope/config.hpp"
#include "kscope/options.hpp"
#include "subprocess/child_report.hpp"

namespace kscope::subprocess {

inline constexpr const char* kChildScopeVariable = "KSCOPE_CHILD_SCOPE";

struct ChildScope {
  std::optional<std::vector<std::size_t>> configs;  ///< indices of the configs to run; nullopt: all
  bool once = false;            ///< each config once: no warm-up, one run, no cache flush
  std::size_t stop_at = 0;      ///< end the child at this annotation boundary (1 = first entry,
                                ///< 2 = its exit, 3 = the next entry, ...); 0: run to the end
  bool release_device = false;  ///< reset the device when the session ends (or stops)
  /// End the session at the first config boundary after this many milliseconds of it (a part of
  /// a sweep the parent journals before starting the next child); 0: no limit.
  std::size_t budget_ms = 0;

  /// The KSCOPE_CHILD_SCOPE value.
  [[nodiscard]] std::string to_string() const;
  /// The variables a parent adds to the child's environment.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> environment() const;
  /// Parses a KSCOPE_CHILD_SCOPE value; throws kscope::Error naming the variable when malformed.
  [[nodiscard]] static ChildScope parse(const std::string& text);
  /// This process's scope (the whole session when the variable is unset).
  [[nodiscard]] static ChildScope from_environment();

  /// The configs to run, in sweep order. Throws kscope::Error when an index is out of range (the
  /// re-run program passed other configs than the parent's).
  [[nodiscard]] std::vector<Config> select(const std::vector<Config>& configs) const;
  /// The options the child's session runs with.
  [[nodiscard]] Options apply(const Options& options) const;
};

}  // namespace kscope::subprocess
