// Loading NVML: a machine without a driver (or a library that is not NVML) makes NVML
// "unavailable" with one clear reason; a missing entry point makes one reading "not supported";
// renamed functions fall back to their old names. Uses the fake library in fake_nvml.cpp.
#include <gtest/gtest.h>

#include "fake_nvml.hpp"
#include "nvml/device_mapping.hpp"
#include "nvml/nvml_library.hpp"

namespace kscope::nvml {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(NvmlLibraryTest, MissingLibraryIsUnavailableWithTheReason) {
  std::string why;
  EXPECT_EQ(NvmlLibrary::load(&why, "libkscope-no-such-nvml.so.1"), nullptr);
  EXPECT_TRUE(contains(why, "cannot load libkscope-no-such-nvml.so.1")) << why;
  EXPECT_TRUE(contains(why, "no driver")) << why;
}

TEST(NvmlLibraryTest, LibraryWithoutNvmlIsUnavailable) {
  std::string why;
  EXPECT_EQ(NvmlLibrary::load(&why, "libm.so.6"), nullptr);
  EXPECT_TRUE(contains(why, "does not export nvmlInit_v2")) << why;
}

TEST(NvmlLibraryTest, DefaultLibraryLoadsOrSaysWhy) {
  // On a machine without an NVIDIA driver (CI, the build machine) this is the failure path;
  // on the GPU machine it loads.
  std::string why;
  const auto lib = NvmlLibrary::load(&why);
  if (lib) {
    EXPECT_FALSE(lib->loaded_from().empty());
  } else {
    EXPECT_TRUE(contains(why, "libnvidia-ml.so.1")) << why;
  }
}

TEST(NvmlLibraryTest, FailingInitIsUnavailableAndNamesTheError) {
  testing::FakeNvml fake;
  fake.set_init_result(kErrorDriverNotLoaded);
  std::string why;
  EXPECT_EQ(NvmlLibrary::load(&why, testing::FakeNvml::path()), nullptr);
  EXPECT_TRUE(contains(why, "nvmlInit_v2 returned Driver Not Loaded (9)")) << why;
  EXPECT_EQ(fake.shutdown_calls(), 0);  // no shutdown without a successful init
}

TEST(NvmlLibraryTest, InitAndShutdownArePaired) {
  testing::FakeNvml fake;
  {
    std::string why;
    const auto lib = NvmlLibrary::load(&why, testing::FakeNvml::path());
    ASSERT_NE(lib, nullptr) << why;
    EXPECT_EQ(fake.init_calls(), 1);
  }
  EXPECT_EQ(fake.shutdown_calls(), 1);
}

class FakeNvmlDeviceTest : public testing::FakeNvmlTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(FakeNvmlTest::SetUp());
    std::string why;
    auto device = find_nvml_device(lib_, "0000:00:06.0", "", &why);
    ASSERT_TRUE(device) << why;
    device_.emplace(std::move(*device));
  }
  std::optional<NvmlDevice> device_;
};

TEST_F(FakeNvmlDeviceTest, RenamedFunctionsFallBackToTheirOldNames) {
  // No nvmlDeviceGetTemperatureV: the deprecated nvmlDeviceGetTemperature answers.
  EXPECT_EQ(lib_->symbols().temperature_v.fn, nullptr);
  EXPECT_EQ(device_->temperature(), 41);
  // No nvmlDeviceGetCurrentClocksEventReasons: the ...ThrottleReasons name is used.
  EXPECT_STREQ(lib_->symbols().clock_event_reasons.name, "nvmlDeviceGetCurrentClocksThrottleReasons");
  EXPECT_EQ(device_->clock_event_reasons(), 0x4u);
}

TEST_F(FakeNvmlDeviceTest, MissingEntryPointIsNotSupportedNotACrash) {
  std::string why;
  EXPECT_EQ(device_->power_w(&why), std::nullopt);
  EXPECT_TRUE(contains(why, "nvmlDeviceGetPowerUsage is not exported by")) << why;
  EXPECT_TRUE(contains(why, "not supported")) << why;
}

TEST_F(FakeNvmlDeviceTest, ReadsClocksMarginNameAndUuid) {
  EXPECT_EQ(device_->clock_mhz(kClockSm), 1755);
  EXPECT_EQ(device_->clock_mhz(kClockMem), 3201);
  EXPECT_EQ(device_->max_clock_mhz(kClockSm), 1980);
  EXPECT_EQ(device_->margin_temperature(), 47);  // also checks the struct version tag we send
  EXPECT_EQ(device_->name(), "Fake GPU A");
  EXPECT_EQ(device_->uuid(), "GPU-aaaaaaaa-0000-0000-0000-000000000000");
  EXPECT_EQ(device_->pci_bus_id(), "00000000:00:06.0");
}

TEST_F(FakeNvmlDeviceTest, ErrorsFromNvmlAreNamed) {
  fake_.set_margin(kErrorNotSupported, 0);
  std::string why;
  EXPECT_EQ(device_->margin_temperature(&why), std::nullopt);
  EXPECT_EQ(why, "nvmlDeviceGetMarginTemperature returned Not Supported (3)");
}

}  // namespace
}  // namespace kscope::nvml
