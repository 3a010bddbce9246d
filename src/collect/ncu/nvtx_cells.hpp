#pragma once
// The two NVTX columns of ncu's raw page. Push/pop ranges ("thread Domain:Push/Pop_Range:PL_Type:
// PL_Value:CLR_Type:Color:Msg_Type:Msg"): the thread id, then one quoted entry per open range,
// bottom of the stack first: `1255  "bench:outer:none:none:none:none:ASCII:outer"  "..." `.
// Start/end ranges ("Id:Domain:Start/Stop_Range:PL_Type:PL_Value:..."): one quoted entry per
// open range: ` "0:bench:se:none:none:none:none:ASCII:se" `. The default domain is written
// "<default domain>". ncu does not escape a '"' in a range name: `"0:kscope:say "hi":...:say
// "hi""` is the range `say "hi"` (the entry ends at the '"' before the spaces and the next entry
// or the end of the cell).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kscope::ncu {

struct NvtxRange {
  std::string domain;        ///< "<default domain>" for the default domain
  std::string name;          ///< the range name (message)
  std::string payload_type;  ///< "none" when the range carries no payload
  std::optional<std::uint64_t> payload;  ///< the payload when it is an integer
  std::string id;            ///< start/end ranges: ncu's range id; push/pop: empty
};

/// The stack of push/pop ranges of one result, bottom first ("" gives none). Throws
/// kscope::Error quoting the cell when an entry has too few fields.
[[nodiscard]] std::vector<NvtxRange> parse_push_pop_cell(std::string_view cell);
/// The start/end ranges open at one result.
[[nodiscard]] std::vector<NvtxRange> parse_start_end_cell(std::string_view cell);

inline constexpr const char* kDefaultNvtxDomain = "<default domain>";

/// The ranges in ncu's --nvtx-include grammar: start/end ranges "domain@name", push/pop
/// stacks "domain@outer/inner/", default-domain ranges without "domain@"; several joined with
/// " | ". Ranges of `bare_domain` (kscope's own) are written as their bare name.
[[nodiscard]] std::string nvtx_label(const std::vector<NvtxRange>& start_end,
                                     const std::vector<NvtxRange>& push_pop,
                                     const std::string& bare_domain);

}  // namespace kscope::ncu
