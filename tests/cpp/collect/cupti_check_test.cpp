#include <gtest/gtest.h>

#include "collect/cupti/cupti_check.hpp"

namespace kscope::cupti {
namespace {

TEST(CuptiCheckTest, AnotherSubscriberNamesTheLikelyHolders) {
  const std::string msg = error_message(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "cuptiSubscribe(...)");
  EXPECT_NE(msg.find("cuptiSubscribe(...) failed with code 39"), std::string::npos) << msg;
  EXPECT_NE(msg.find("torch.profiler"), std::string::npos);
  EXPECT_NE(msg.find("Nsight Compute"), std::string::npos);
}

TEST(CuptiCheckTest, InsufficientPrivilegesExplainsTheDriverSetting) {
  const std::string msg = error_message(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "x");
  EXPECT_NE(msg.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << msg;
}

TEST(CuptiCheckTest, ThrowCarriesTheCode) {
  try {
    KSCOPE_CUPTI_CHECK(CUPTI_ERROR_NOT_INITIALIZED);
    FAIL();
  } catch (const CuptiError& e) {
    EXPECT_EQ(e.code(), 15);
    EXPECT_NE(std::string(e.what()).find("driver is too old"), std::string::npos);
  }
}

}  // namespace
}  // namespace kscope::cupti
