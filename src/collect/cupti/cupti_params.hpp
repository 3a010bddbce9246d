#pragma once
// CUPTI's profiler calls take parameter structs that must be zeroed and carry their size:
// `auto p = KSCOPE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);`.

#include <cstddef>

namespace kscope::cupti {

template <class Params>
Params make_params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

}  // namespace kscope::cupti

#define KSCOPE_CUPTI_PARAMS(Type) ::kscope::cupti::make_params<Type>(Type##_STRUCT_SIZE)
