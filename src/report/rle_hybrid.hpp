#pragma once
// Parquet's RLE / bit-packing hybrid encoding of small unsigned integers (definition levels,
// dictionary indices): runs of one repeated value (RLE) and groups of 8 values packed in
// `bit_width` bits each, least significant bit first.

#include <cstdint>
#include <string>
#include <vector>

namespace kscope::report::parquet {

/// Appends `values` (each below 2^bit_width, bit_width 1..32) to `out`: repeats of 8 or more as
/// RLE runs, the rest bit-packed in whole groups of 8 (the last group padded with zeros).
void encode_hybrid(const std::vector<std::uint32_t>& values, int bit_width, std::string& out);
/// Decodes `count` values from [data, data + size) into `out`; FileFormatError when the data
/// ends early or a value is `limit` or more.
void decode_hybrid(const char* data, std::size_t size, int bit_width, std::size_t count,
                   std::uint32_t limit, std::vector<std::uint32_t>& out);
/// The bits needed for values up to `max_value` (at least 1).
[[nodiscard]] int bit_width_for(std::uint32_t max_value);

}  // namespace kscope::report::parquet
