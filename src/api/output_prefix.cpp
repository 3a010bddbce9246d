#include "api/output_prefix.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

#include "kscope/errors.hpp"

namespace kscope {

std::string resolve_output_prefix(const std::string& prefix) {
  if (prefix.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/kscope_XXXXXX";
    if (!mkdtemp(templ.data())) {
      throw Error("cannot create a temporary output directory '" + templ + "': " +
                  std::strerror(errno) + ". Set output_prefix.");
    }
    return templ + "/";
  }
  const std::filesystem::path dir = std::filesystem::path(prefix).parent_path();
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      throw InvalidArgument("Invalid output_prefix '" + prefix + "': cannot create its directory '" +
                            dir.string() + "' (" + ec.message() +
                            "). Choose a prefix in a directory kscope can write to.");
    }
  }
  return prefix;
}

int next_session_id(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, int> counters;
  std::lock_guard<std::mutex> lock(mu);
  return counters[name]++;
}

}  // namespace kscope
