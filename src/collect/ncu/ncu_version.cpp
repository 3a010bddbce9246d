#include "collect/ncu/ncu_version.hpp"

#include <regex>

#include "kscope/errors.hpp"
#include "subprocess/process_runner.hpp"

namespace kscope::ncu {

std::string NcuVersion::to_string() const {
  return std::to_string(year) + "." + std::to_string(minor) + "." + std::to_string(patch) + "." +
         std::to_string(build);
}

std::optional<NcuVersion> parse_ncu_version(std::string_view text) {
  static const std::regex re(R"(Version\s+(\d+)\.(\d+)\.(\d+)(?:\.(\d+))?)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(text.begin(), text.end(), m, re)) return std::nullopt;
  try {
    NcuVersion v;
    v.year = std::stoi(m[1].str());
    v.minor = std::stoi(m[2].str());
    v.patch = std::stoi(m[3].str());
    v.build = m[4].matched ? std::stoi(m[4].str()) : 0;
    return v;
  } catch (const std::exception&) {  // digits beyond int range
    return std::nullopt;
  }
}

NcuVersion query_ncu_version(const std::string& ncu) {
  subprocess::ProcessSpec spec;
  spec.argv = {ncu, "--version"};
  spec.capture_stdout = true;
  spec.timeout = std::chrono::seconds(60);
  const auto r = subprocess::run_process(spec);
  const auto v = parse_ncu_version(r.stdout_text);
  if (!r.succeeded() || !v) {
    throw ToolError("'" + ncu + " --version' did not report a version (" + r.status_text() +
                    "). It printed:\n" + r.stdout_text + r.stderr_text() +
                    "Check the ncu installation or point KSCOPE_NCU at a working ncu.");
  }
  return *v;
}

}  // namespace kscope::ncu
