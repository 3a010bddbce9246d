#include "collect/sanitizer/check_summary.hpp"

#include <set>

namespace kscope::sanitizer {
namespace {

std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string check_summary(const std::string& check, const std::vector<Finding>& findings) {
  std::size_t errors = 0, warnings = 0, leaks = 0;
  std::uint64_t leaked_bytes = 0;
  std::set<std::string> kernels;
  std::string kernel_list;
  for (const auto& f : findings) {
    if (f.check != check) continue;
    if (f.category == "Leak") {
      ++leaks;
      leaked_bytes += f.size.value_or(0);
      continue;
    }
    ++(f.severity == "Warning" ? warnings : errors);
    const std::string kernel = f.kernel.empty() ? "?" : f.kernel;
    if (kernels.insert(kernel).second) kernel_list += (kernel_list.empty() ? "" : ", ") + kernel;
  }
  if (errors + warnings + leaks == 0) return check + ": clean";
  std::string out = check + ": ";
  if (errors + warnings > 0) {
    out += errors > 0 ? counted(errors, "error") : std::string();
    if (warnings > 0) out += (errors > 0 ? ", " : "") + counted(warnings, "warning");
    out += " in " + counted(kernels.size(), "kernel") + " (" + kernel_list + ")";
  }
  if (leaks > 0) {
    out += (errors + warnings > 0 ? "; " : "") + counted(leaks, "leak") + " (" +
           std::to_string(leaked_bytes) + " bytes)";
  }
  return out;
}

std::string truncation_warning(const std::string& check, int limit) {
  return check +
         ": compute-sanitizer stopped reporting at sanitizer_print_limit=" + std::to_string(limit) +
         " records, so later findings are missing and some may be placed wrongly. Raise "
         "Options::sanitizer_print_limit (Python: sanitizer_print_limit=...), or set it to 0 for "
         "no limit.";
}

}  // namespace kscope::sanitizer
