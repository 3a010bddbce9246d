// The bus-id normalisation that maps CUDA devices to NVML devices.
#include <gtest/gtest.h>

#include "nvml/pci_bus_id.hpp"

namespace kscope::nvml {
namespace {

TEST(PciBusIdTest, CudaFormGetsTheEightDigitDomain) {
  EXPECT_EQ(normalize_pci_bus_id("0000:00:06.0"), "00000000:00:06.0");
  EXPECT_EQ(normalize_pci_bus_id("0000:3b:00.0"), "00000000:3B:00.0");
}

TEST(PciBusIdTest, NvmlFormIsUnchanged) {
  EXPECT_EQ(normalize_pci_bus_id("00000000:00:06.0"), "00000000:00:06.0");
  EXPECT_EQ(normalize_pci_bus_id("00000001:C1:1F.7"), "00000001:C1:1F.7");
}

TEST(PciBusIdTest, CaseShortFieldsMissingDomainAndPaddingAreAccepted) {
  EXPECT_EQ(normalize_pci_bus_id("0:3b:0.0"), "00000000:3B:00.0");
  EXPECT_EQ(normalize_pci_bus_id("3B:00.0"), "00000000:3B:00.0");
  EXPECT_EQ(normalize_pci_bus_id("  0000:3b:00.0\n"), "00000000:3B:00.0");
  EXPECT_EQ(normalize_pci_bus_id(std::string_view("0000:00:06.0\0\0", 14)), "00000000:00:06.0");
  EXPECT_EQ(normalize_pci_bus_id("ffff:ff:1f.7"), "0000FFFF:FF:1F.7");
}

TEST(PciBusIdTest, RejectsWhatIsNotABusId) {
  for (const char* bad : {"", "GPU-01234567-89ab", "0000:00:06", "0000:00.06.0", "0000:100:00.0",
                          "0000:00:20.0", "0000:00:06.8", "123456789:00:06.0", "0000:0g:06.0",
                          "a:b:c:d.0", "0000::06.0", "0000:00:06.0x"}) {
    EXPECT_EQ(normalize_pci_bus_id(bad), std::nullopt) << "'" << bad << "'";
  }
}

TEST(PciBusIdTest, SameBusIdComparesCanonicalForms) {
  EXPECT_TRUE(same_pci_bus_id("0000:00:06.0", "00000000:00:06.0"));
  EXPECT_TRUE(same_pci_bus_id("0000:3b:00.0", "00000000:3B:00.0"));
  EXPECT_FALSE(same_pci_bus_id("0000:3b:00.0", "0000:3c:00.0"));
  EXPECT_FALSE(same_pci_bus_id("junk", "junk"));
}

}  // namespace
}  // namespace kscope::nvml
