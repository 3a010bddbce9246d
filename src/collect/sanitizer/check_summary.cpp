#include "collect/sanitizer/check_summary.hpp"

#include <set>

#include "collect/sanitizer/sanitizer_report.hpp"

namespace kscope::sanitizer {
namespace {

std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string check_summary(const std::string& check, const std::vector<Finding>& findings) {
  std::size_t errors = 0, warnings = 0, leaks = 0, failed_calls = 0;
  std::uint64_t leaked_bytes = 0;
  std::set<std::string> kernels, calls;
  std::string kernel_list, call_list;
  const auto listed = [](const std::string& name, std::set<std::string>* seen, std::string* list) {
    if (seen->insert(name).second) *list += (list->empty() ? "" : ", ") + name;
  };
  for (const auto& f : findings) {
    if (f.check != check) continue;
    if (is_leak(f)) {
      ++leaks;
      leaked_bytes += f.size.value_or(0);
    } else if (is_api_error(f)) {
      ++failed_calls;
      listed(f.function.empty() ? "?" : f.function, &calls, &call_list);
    } else {
      ++(f.severity == "Warning" ? warnings : errors);
      listed(f.kernel.empty() ? "?" : f.kernel, &kernels, &kernel_list);
    }
  }
  if (errors + warnings + leaks + failed_calls == 0) return check + ": clean";
  std::vector<std::string> parts;
  if (errors + warnings > 0) {
    std::string part = errors > 0 ? counted(errors, "error") : std::string();
    if (warnings > 0) part += (errors > 0 ? ", " : "") + counted(warnings, "warning");
    parts.push_back(part + " in " + counted(kernels.size(), "kernel") + " (" + kernel_list + ")");
  }
  if (leaks > 0) {
    parts.push_back(counted(leaks, "leak") + " (" + std::to_string(leaked_bytes) + " bytes)");
  }
  if (failed_calls > 0) {
    parts.push_back(counted(failed_calls, "CUDA API call") + " failed" +
                    (errors + warnings > 0 ? " after the first error" : "") + " (" + call_list +
                    ")");
  }
  std::string out = check + ": ";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

std::string truncation_warning(const std::string& check, int limit) {
  return check +
         ": compute-sanitizer stopped reporting at sanitizer_print_limit=" + std::to_string(limit) +
         " records, so later findings are missing and some may be placed wrongly. Raise "
         "Options::sanitizer.print_limit (Python: sanitizer_print_limit=...), or set it to 0 for "
         "no limit.";
}

}  // namespace kscope::sanitizer
