#pragma once
// Whether a saved result or journal comes from the same sweep as another one: the session name,
// the parameter names, every config's values and the options that change what is measured.
// What a resumed sweep and a merge of shards check.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kscope/results.hpp"

namespace kscope {

/// The first difference between `there` (a saved header) and a sweep of `name` over `configs`
/// with `options`, worded "the journal was written with runs=2, this session has runs=3" style
/// with `there_word` ("the journal") and `here_word` ("this session"); nullopt when none.
/// Options the option table (core/option_table.cpp) marks OptionRecord::kFree may differ: those
/// that change only what is shown or written (verbosity, output_prefix, ...) and the functions
/// applied to recorded kernels (derive_metric, combine_kernel_metrics).
[[nodiscard]] std::optional<std::string> sweep_difference(
    const Results::Data& there, std::string_view name, const std::vector<Config>& configs,
    const Options& options, const std::string& there_word = "the journal",
    const std::string& here_word = "this session");

}  // namespace kscope
