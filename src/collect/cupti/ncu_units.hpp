#pragma once
// Units as Nsight Compute prints them. CUPTI's host API names dimensions its own way
// ("nanosecond", "percent", "gpc_cycle/second", "l2_sector"); ncu's raw CSV page, and so the
// Unit column of kscope's results, uses short base units ("ns", "%", "cycle/second", "sector").

#include <string>
#include <string_view>

namespace kscope::cupti {

/// ncu's spelling of a CUPTI dimension unit: each '/'-separated factor is translated
/// (nanosecond -> ns, percent -> %, instruction -> inst, *_cycle -> cycle, *_sector -> sector,
/// *_request -> request); factors ncu spells like CUPTI ("byte", "warp", "thread") and unknown
/// ones pass through unchanged. "" (dimensionless) stays "".
[[nodiscard]] std::string ncu_unit(std::string_view cupti_dim_unit);

}  // namespace kscope::cupti
