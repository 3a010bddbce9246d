#pragma once
// Which definition made a result's durations (Metadata::duration_definition): the tools name
// theirs (ToolEntry::duration_definition) for the options that measure one.

#include "kscope/options.hpp"

namespace kscope {

/// Whether `options` measure gpu__time_duration.sum (so that a definition is recorded).
[[nodiscard]] bool measures_durations(const Options& options);

}  // namespace kscope
