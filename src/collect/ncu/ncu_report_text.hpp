#pragma once
// The raw-page CSV text of an ncu report: a .ncu-rep is exported by ncu itself
// (`ncu --import <report> --csv --page raw --print-units base`); a CSV file is read as it is.

#include <string>

namespace kscope::ncu {

/// Whether `path` is a binary ncu report (by its ".ncu-rep" name or its magic "NVR\0") rather
/// than CSV text. Throws kscope::Error when it cannot be opened.
[[nodiscard]] bool is_ncu_report_file(const std::string& path);

/// The raw-page CSV of `path`. For a .ncu-rep, `ncu` is the ncu to run ("" : locate_ncu()).
/// Throws kscope::Error when the file cannot be read, kscope::FileFormatError when a CSV is
/// empty or not text (check_text_file), kscope::ToolError with ncu's output when the export fails.
[[nodiscard]] std::string ncu_raw_csv(const std::string& path, const std::string& ncu = "");

}  // namespace kscope::ncu
