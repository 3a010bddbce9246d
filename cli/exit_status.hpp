#pragma once
// The exit statuses of the `kscope` command. The table below is printed by `kscope --help`;
// docs/cli.md holds the same rows, and tests/python/test_cli_docs.py checks that they agree and
// that every command returns what they say.

#include <string>

namespace kscope::cli {

inline constexpr int kExitSuccess = 0;
/// An error kscope reports on one line "kscope: error: ...": a file, a tool, the device.
inline constexpr int kExitError = 1;
/// The command line is wrong, whatever the files hold.
inline constexpr int kExitUsage = 2;
/// `kscope compare --threshold`: a row is SLOWER beyond the threshold.
inline constexpr int kExitRegression = 3;

/// Thrown by a subcommand that finished its work but must end with another status than 0
/// (compare with --threshold, on a regression); main() returns its code.
struct ExitStatus {
  int code;
};

/// The "Exit status:" section of `kscope --help`: one line per status.
[[nodiscard]] std::string exit_status_help();

}  // namespace kscope::cli
