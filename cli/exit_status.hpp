#pragma once
// A subcommand that finished its work but must end with a status other than 0 (kscope compare
// with --threshold, on a regression) throws ExitStatus; main() returns its code.

namespace kscope::cli {

/// Exit status of `kscope compare --threshold` when a row is SLOWER beyond the threshold.
inline constexpr int kExitRegression = 3;

struct ExitStatus {
  int code;
};

}  // namespace kscope::cli
