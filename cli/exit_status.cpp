#include "exit_status.hpp"

#include <sstream>
#include <utility>
#include <vector>

namespace kscope::cli {

std::string exit_status_help() {
  const std::vector<std::pair<const char*, const char*>> statuses = {
      {"0", "success (--help and --version included)"},
      {"1", "the command failed; the reason is on stderr as \"kscope: error: ...\": an unreadable "
            "or malformed file, a failed tool, no CUDA device, an unknown metric (check-metrics), "
            "a metric or field the result lacks (plot)"},
      {"2", "usage error: no or an unknown subcommand, an unknown option, a missing argument, an "
            "invalid value, a path that is not a file"},
      {"3", "compare --threshold: a row is SLOWER beyond the threshold"},
      {"128+N", "ended by signal N (as the shell reports it)"},
  };
  // Each meaning wrapped at 100 columns, under its first word.
  constexpr std::size_t kIndent = 9, kWidth = 100;
  std::string out = "Exit status:";
  for (const auto& [status, meaning] : statuses) {
    std::string line = "  " + std::string(status);
    line.resize(kIndent, ' ');
    std::istringstream words(meaning);
    std::size_t used = 0;  // words on the current line
    for (std::string word; words >> word; ++used) {
      if (used > 0 && line.size() + 1 + word.size() > kWidth) {
        out += "\n" + line;
        line = std::string(kIndent, ' ');
        used = 0;
      }
      line += (used > 0 ? " " : "") + word;
    }
    out += "\n" + line;
  }
  return out;
}

}  // namespace kscope::cli
