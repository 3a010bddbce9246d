#pragma once
// Checks CUPTI calls. Failures become kscope::CuptiError with the call, the code, CUPTI's text
// and, for the codes users can act on, what to do.

#include <cupti.h>

#include <string>

#include "kscope/errors.hpp"

namespace kscope::cupti {

/// The message for a failed CUPTI call (exposed for tests).
[[nodiscard]] std::string error_message(CUptiResult code, const char* call);

[[noreturn]] void throw_cupti_error(CUptiResult code, const char* call);

}  // namespace kscope::cupti

#define KSCOPE_CUPTI_CHECK(call)                                                  \
  do {                                                                            \
    const CUptiResult kscope_cupti_status_ = (call);                              \
    if (kscope_cupti_status_ != CUPTI_SUCCESS) {                                  \
      ::kscope::cupti::throw_cupti_error(kscope_cupti_status_, #call);            \
    }                                                                             \
  } while (0)
