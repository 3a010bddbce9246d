#pragma once
// Numbers as ncu prints them in CSV: thousands separators ("1,980,000", "2,624.00"), "n/a"
// for values it could not collect.

#include <optional>
#include <string_view>

namespace kscope::ncu {

/// The value of a metric cell: NaN for "" and "n/a", nullopt when the text is not a number
/// (an attribute like "PolicySpread").
[[nodiscard]] std::optional<double> parse_ncu_number(std::string_view text);

}  // namespace kscope::ncu
