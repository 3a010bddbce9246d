#pragma once
/// @file merge.hpp
/// kscope::merge: the shards of one sweep (Options::shard; docs/scale-out.md), each a result or
/// journal of its own, joined into the result of the whole sweep: the same configs, runs and
/// statistics as one process measuring them all.

#include <string>
#include <vector>

#include "kscope/results.hpp"

namespace kscope {

struct MergeOptions {
  /// A config measured by more than one part is kept from the first part that has it, instead
  /// of refused.
  bool allow_overlap = false;
  /// Configs no part measured stay without rows, instead of refused (the result is then not
  /// complete).
  bool allow_missing = false;
  /// How messages name the parts (their files); empty: "part 1", "part 2", ...
  std::vector<std::string> labels;
};

/**
 * Joins `parts` of one sweep. Every part must come from the same session name, configs and
 * measurement options (InvalidArgument naming the first difference); a config measured by two
 * parts, or by none, is an InvalidArgument naming it unless `options` allow it. Statistics
 * (geomean and normalisation included) are computed over the joined runs; configs measured on
 * different GPU models are named in Results::load_warnings().
 */
[[nodiscard]] Results merge(const std::vector<Results>& parts, const MergeOptions& options = {});

}  // namespace kscope
