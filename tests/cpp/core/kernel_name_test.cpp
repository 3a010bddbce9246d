#include <gtest/gtest.h>

#include "core/kernel_name.hpp"

namespace kscope {
namespace {

TEST(KernelNameTest, DemanglesItaniumNames) {
  EXPECT_EQ(demangle("_Z4vaddPKfS0_Pfi"), "vadd(float const*, float const*, float*, int)");
  EXPECT_EQ(demangle("vadd"), "vadd");
  EXPECT_EQ(demangle("_Znotvalid"), "_Znotvalid");
}

TEST(KernelNameTest, BaseNameDropsReturnTypeAndParameters) {
  EXPECT_EQ(kernel_base_name("_Z4vaddPKfS0_Pfi"), "vadd");
  EXPECT_EQ(kernel_base_name("vadd(const float *, const float *, float *, int)"), "vadd");
  EXPECT_EQ(kernel_base_name("void ns::scale<float, 4>(float*, int)"), "ns::scale<float, 4>");
  EXPECT_EQ(kernel_base_name("_ZN2ns5scaleIfLi4EEEvPfi"), "ns::scale<float, 4>");
  EXPECT_EQ(kernel_base_name("triton_poi_fused_add_0"), "triton_poi_fused_add_0");
  EXPECT_EQ(kernel_base_name("kscope::testing::(anonymous namespace)::spin_kernel(long long)"),
            "kscope::testing::(anonymous namespace)::spin_kernel");
  EXPECT_EQ(kernel_base_name("void (anonymous namespace)::k<(int)3>(float*)"),
            "(anonymous namespace)::k<(int)3>");
}

TEST(KernelNameTest, ShortNameDropsNamespaces) {
  EXPECT_EQ(kernel_short_name("_ZN2ns5scaleIfLi4EEEvPfi"), "scale<float, 4>");
  EXPECT_EQ(kernel_short_name("kscope::testing::(anonymous namespace)::spin_kernel(long long)"), "spin_kernel");
  EXPECT_EQ(kernel_short_name("void f<a::b>(int)"), "f<a::b>");
}

TEST(KernelNameTest, MatchesAnyOfTheThreeForms) {
  EXPECT_TRUE(kernel_name_matches("_Z4vaddPKfS0_Pfi", "vadd"));
  EXPECT_TRUE(kernel_name_matches("_Z4vaddPKfS0_Pfi", "vadd(float const*, float const*, float*, int)"));
  EXPECT_TRUE(kernel_name_matches("_Z4vaddPKfS0_Pfi", "_Z4vaddPKfS0_Pfi"));
  EXPECT_FALSE(kernel_name_matches("_Z4vaddPKfS0_Pfi", "vad"));
  EXPECT_TRUE(kernel_name_matches("_ZN2ns5scaleIfLi4EEEvPfi", "scale<float, 4>"));
  EXPECT_TRUE(kernel_name_matches("_ZN2ns5scaleIfLi4EEEvPfi", "ns::scale<float, 4>"));
}

}  // namespace
}  // namespace kscope
