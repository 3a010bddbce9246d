#pragma once
// Files kscope reads as text (result JSON, ncu CSV): an empty file and one that is not text are
// said to be so, before a parser reports where it stopped in them.

#include <string>
#include <string_view>

namespace kscope {

/// Throws kscope::FileFormatError "'<path>' is empty (...): expected <expected>" when `text` is
/// empty or only white space, and "'<path>' is not a text file (byte \xNN at offset N): expected
/// <expected>" when it holds a control byte other than white space, backspace and ESC (terminal
/// output) or DEL: a NUL, say. Bytes that are not UTF-8 are text here: ncu CSVs carry Latin-1
/// names.
void check_text_file(std::string_view text, const std::string& path, const std::string& expected);

}  // namespace kscope
