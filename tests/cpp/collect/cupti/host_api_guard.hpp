#pragma once
// Tests that call the CUPTI host API skip under AddressSanitizer: libcupti loads
// libnvperf_host.so with RTLD_DEEPBIND, which the ASan runtime refuses to load
// (google/sanitizers#611), aborting the process. The pure logic around it still runs there.

#include <gtest/gtest.h>

#if defined(__SANITIZE_ADDRESS__)
#define KSCOPE_SKIP_WITHOUT_CUPTI_HOST_API()                                                  \
  GTEST_SKIP() << "CUPTI loads libnvperf_host.so with RTLD_DEEPBIND, which AddressSanitizer " \
                  "refuses (google/sanitizers#611)"
#else
#define KSCOPE_SKIP_WITHOUT_CUPTI_HOST_API() (void)0
#endif

namespace kscope::testing {

/// Fixture for tests that need the CUPTI host API.
class CuptiHostApiTest : public ::testing::Test {
 protected:
  void SetUp() override { KSCOPE_SKIP_WITHOUT_CUPTI_HOST_API(); }
};

}  // namespace kscope::testing
