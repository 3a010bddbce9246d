#include "collect/ncu/ncu_report_text.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "collect/ncu/ncu_command.hpp"
#include "collect/ncu/ncu_locator.hpp"
#include "kscope/errors.hpp"
#include "subprocess/process_runner.hpp"

namespace kscope::ncu {
namespace {

std::ifstream open_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the ncu report '" + path + "': " + std::strerror(errno));
  return in;
}

}  // namespace

bool is_ncu_report_file(const std::string& path) {
  auto in = open_report(path);
  const std::string ext = ".ncu-rep";
  if (path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0) {
    return true;
  }
  char head[4096];
  in.read(head, sizeof head);
  return std::memchr(head, '\0', static_cast<std::size_t>(in.gcount())) != nullptr;
}

std::string ncu_raw_csv(const std::string& path, const std::string& ncu) {
  if (!is_ncu_report_file(path)) {
    auto in = open_report(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  subprocess::ProcessSpec spec;
  spec.argv = ncu_import_argv(ncu.empty() ? locate_ncu() : ncu, path);
  spec.capture_stdout = true;
  const auto r = subprocess::run_process(spec);
  if (!r.succeeded()) {
    throw ToolError("cannot export the ncu report '" + path + "' (" +
                    subprocess::command_line_text(spec.argv) + " ended with " + r.status_text() +
                    "):\n" + r.stderr_text() + r.stdout_text.substr(0, 2000));
  }
  return r.stdout_text;
}

}  // namespace kscope::ncu
