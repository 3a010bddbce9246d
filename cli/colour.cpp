#include "colour.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace kscope::cli {
namespace {

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

bool colour_for(int fd) {
  if (!variable("NO_COLOR").empty()) return false;
  const std::string force = variable("FORCE_COLOR");
  if (!force.empty() && force != "0") return true;
  return isatty(fd) == 1 && variable("TERM") != "dumb";
}

WriteOptions stdout_write_options() {
  WriteOptions options;
  options.colour = colour_for(STDOUT_FILENO);
  return options;
}

}  // namespace kscope::cli
