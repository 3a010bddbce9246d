#pragma once
// Text from files kscope reads (ncu CSVs, sanitizer XML) may hold bytes that are not UTF-8: a
// kernel, function or source path compiled from a Latin-1 file, or a corrupt report. JSON and
// Python strings need UTF-8, so such text is carried through with each offending byte written
// as the four characters "\xNN" (docs/output-schema.md): readable, and two names that differ only
// in those bytes stay different.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kscope {

/// The offset of the first byte of `text` that starts no well-formed UTF-8 sequence (a cut
/// sequence at the end included); nullopt when `text` is well-formed UTF-8.
[[nodiscard]] std::optional<std::size_t> first_invalid_utf8(std::string_view text);

/// Whether `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// above U+10FFFF).
[[nodiscard]] bool is_valid_utf8(std::string_view text);

/// `text` with every byte that is not part of a well-formed UTF-8 sequence replaced by "\xNN"
/// (two upper-case hex digits); valid text is returned unchanged.
[[nodiscard]] std::string escape_invalid_utf8(std::string_view text);

}  // namespace kscope
