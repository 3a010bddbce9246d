#pragma once
// How the `kscope` command reports on stderr: "kscope: warning: ...", "kscope: error: ..." and
// usage errors (the error line and "Run 'kscope <subcommand> --help' for usage."), the words
// "warning:" and "error:" coloured by the colour rule (colour.hpp). `kscope plot` writes the
// same lines (python/kscope_launcher/messages.py).

#include <string>

#include "kscope/results.hpp"

namespace kscope::cli {

void print_warning(const std::string& message);
/// One warning per Results::load_warnings() of `results` (the lines a journal skipped).
void print_load_warnings(const Results& results);
void print_error(const std::string& message);
/// `command`: the subcommand whose --help to point to ("" for the top level).
void print_usage_error(const std::string& message, const std::string& command);

}  // namespace kscope::cli
