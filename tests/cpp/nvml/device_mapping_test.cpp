// Mapping a CUDA device to its NVML device: by normalised PCI bus id, else by UUID (fake NVML).
#include <gtest/gtest.h>

#include "cuda/device_identity.hpp"
#include "fake_nvml.hpp"
#include "nvml/device_mapping.hpp"

namespace kscope::nvml {
namespace {

using DeviceMappingTest = testing::FakeNvmlTest;

TEST_F(DeviceMappingTest, LooksUpTheNormalisedBusId) {
  std::string why;
  const auto device = find_nvml_device(lib_, "0000:00:06.0", "GPU-ignored", &why);
  ASSERT_TRUE(device) << why;
  EXPECT_EQ(fake_.last_bus_id(), "00000000:00:06.0");  // what NVML was asked for
  EXPECT_EQ(device->name(), "Fake GPU A");
  EXPECT_EQ(device->pci_bus_id(), "00000000:00:06.0");
}

TEST_F(DeviceMappingTest, AnyBusIdFormFindsTheSameDevice) {
  for (const char* form : {"00000000:00:06.0", "0:0:6.0", "00:06.0", " 0000:00:06.0 "}) {
    std::string why;
    const auto device = find_nvml_device(lib_, form, "", &why);
    ASSERT_TRUE(device) << form << ": " << why;
    EXPECT_EQ(device->name(), "Fake GPU A") << form;
  }
}

TEST_F(DeviceMappingTest, FallsBackToTheUuid) {
  std::string why;
  const auto device =
      find_nvml_device(lib_, "0000:00:07.0", "GPU-01234567-89ab-cdef-0123-456789abcdef", &why);
  ASSERT_TRUE(device) << why;
  EXPECT_EQ(device->name(), "Fake GPU B");
  EXPECT_EQ(device->pci_bus_id(), "00000000:00:07.0");
}

TEST_F(DeviceMappingTest, NeitherIdFoundSaysWhyForBoth) {
  std::string why;
  EXPECT_FALSE(find_nvml_device(lib_, "0000:00:07.0", "GPU-unknown", &why));
  EXPECT_EQ(why,
            "NVML has no device with CUDA's PCI bus id '0000:00:07.0' "
            "(nvmlDeviceGetHandleByPciBusId_v2 returned Not Found (6)) nor with its UUID "
            "'GPU-unknown' (nvmlDeviceGetHandleByUUID returned Not Found (6))");
}

TEST_F(DeviceMappingTest, MalformedBusIdIsNotSentToNvml) {
  std::string why;
  EXPECT_FALSE(find_nvml_device(lib_, "bogus", "", &why));
  EXPECT_EQ(fake_.last_bus_id(), "");
  EXPECT_NE(why.find("'bogus' (it is not a PCI bus id)"), std::string::npos) << why;
}

TEST(GpuUuidTest, FormatsCudaBytesLikeNvml) {
  const unsigned char bytes[16] = {0x5e, 0x0f, 0x12, 0xab, 0xcd, 0xef, 0x01, 0x23,
                                   0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x00, 0xff};
  EXPECT_EQ(cuda::format_gpu_uuid(bytes), "GPU-5e0f12ab-cdef-0123-4567-89abcdef00ff");
}

}  // namespace
}  // namespace kscope::nvml
