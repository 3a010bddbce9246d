#include "subprocess/error_relay.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "kscope/errors.hpp"

namespace kscope::subprocess {
namespace {

template <class E>
void expect_round_trip(const E& original, const char* kind) {
  EXPECT_EQ(error_kind(original), kind);
  try {
    throw_error_of_kind(error_kind(original), "again");
  } catch (const E& e) {
    EXPECT_STREQ(e.what(), "again");
    return;
  } catch (...) {
  }
  ADD_FAILURE() << kind << " was not thrown again as the same class";
}

TEST(ErrorRelayTest, KscopeErrorsKeepTheirClass) {
  expect_round_trip(NoDeviceError("x"), "NoDeviceError");
  expect_round_trip(InvalidArgument("x"), "InvalidArgument");
  expect_round_trip(ConfigError("x"), "ConfigError");
  expect_round_trip(AnnotationError("x"), "AnnotationError");
  expect_round_trip(ExtractionError("x"), "ExtractionError");
  expect_round_trip(NotSupportedError("x"), "NotSupportedError");
  expect_round_trip(ToolError("x"), "ToolError");
  expect_round_trip(ThermalControlError("x"), "ThermalControlError");
  expect_round_trip(CoolingTimeoutError("x"), "CoolingTimeoutError");
  expect_round_trip(Error("x"), "Error");
}

TEST(ErrorRelayTest, CuptiErrorIsAToolError) { EXPECT_EQ(error_kind(CuptiError("x", 39)), "ToolError"); }

TEST(ErrorRelayTest, OtherExceptionsBecomeKscopeErrors) {
  EXPECT_EQ(error_kind(std::runtime_error("user")), "exception");
  EXPECT_THROW(throw_error_of_kind("exception", "user"), Error);
}

}  // namespace
}  // namespace kscope::subprocess
