#pragma once
// Whether the `kscope` command colours what it writes (docs/cli.md, "Colour"). The Python side of
// the command (`kscope plot`) follows the same rule in python/kscope_launcher/colour.py.

#include "kscope/results.hpp"

namespace kscope::cli {

/// True when output to the file descriptor `fd` gets ANSI colours: never when NO_COLOR is set
/// and not empty (https://no-color.org); else always when FORCE_COLOR is set, not empty and not
/// "0"; else when `fd` is a terminal and TERM is not "dumb".
[[nodiscard]] bool colour_for(int fd);

/// Results::write options for standard output: colour by the rule above.
[[nodiscard]] WriteOptions stdout_write_options();

}  // namespace kscope::cli
