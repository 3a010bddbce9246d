#include "collect/ncu/ncu_report_text.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "collect/ncu/ncu_command.hpp"
#include "collect/ncu/ncu_locator.hpp"
#include "core/text_file.hpp"
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
  // A report starts with the magic "NVR\0" (as Extra-P's reader of the format describes it).
  char head[4] = {};
  in.read(head, sizeof head);
  return in.gcount() == 4 && std::memcmp(head, "NVR\0", 4) == 0;
}

std::string ncu_raw_csv(const std::string& path, const std::string& ncu) {
  if (!is_ncu_report_file(path)) {
    auto in = open_report(path);
    std::stringstream s;
    s << in.rdbuf();
    check_text_file(s.str(), path,
                    "the CSV of ncu's raw page (ncu --csv --page raw) or a .ncu-rep report");
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
