#pragma once
// Argument values the engine checks (a threshold, a significance level, a chip name) are usage
// errors (exit 2) when it rejects them, like the values CLI11 checks itself: the engine's
// InvalidArgument text, which names the value and what is accepted, becomes a CLI11 error.

#include <CLI/CLI.hpp>

#include <utility>

#include "kscope/errors.hpp"

namespace kscope::cli {

/// Runs `f` and returns what it returns; an InvalidArgument it throws becomes a usage error.
template <class F>
decltype(auto) as_usage_error(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const InvalidArgument& e) {
    throw CLI::ValidationError(e.what());
  }
}

}  // namespace kscope::cli
