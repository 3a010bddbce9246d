#pragma once
// The version of the installed ncu ("Version 2025.3.1.0 (build 36398880)") and what it allows.

#include <optional>
#include <string>
#include <string_view>

namespace kscope::ncu {

struct NcuVersion {
  int year = 0, minor = 0, patch = 0, build = 0;  ///< 2025.3.1.0

  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const NcuVersion& a, const NcuVersion& b) {
    return a.year == b.year && a.minor == b.minor && a.patch == b.patch && a.build == b.build;
  }
  friend bool operator<(const NcuVersion& a, const NcuVersion& b) {
    if (a.year != b.year) return a.year < b.year;
    if (a.minor != b.minor) return a.minor < b.minor;
    if (a.patch != b.patch) return a.patch < b.patch;
    return a.build < b.build;
  }
};

/// The first ncu that can attach to a running process (what notebooks need). kscope re-executes
/// the program with every ncu: attaching through ncu's injection library has not been exercised
/// here (the machines have 2025.3.1), so it is left out rather than shipped untested; the
/// version only sharpens the error message where re-execution is impossible.
inline constexpr NcuVersion kNcuAttachVersion{2026, 2, 1, 0};

/// Parses the output of `ncu --version` (the "Version Y.M.P[.B]" part); nullopt when absent.
[[nodiscard]] std::optional<NcuVersion> parse_ncu_version(std::string_view text);

/// Runs `<ncu> --version`. Throws kscope::ToolError quoting the output when it fails or prints no
/// version.
[[nodiscard]] NcuVersion query_ncu_version(const std::string& ncu);

}  // namespace kscope::ncu
