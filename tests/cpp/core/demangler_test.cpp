// demangle() is bounded (issue 15, defect 5: a 321-byte template name cost 19 s and 2 GB in
// abi::__cxa_demangle, reached from ncu CSVs, sanitizer frames and ignore_kernel_list).
#include "core/demangler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace kscope {
namespace {

// Substitution "S<seq>_" for candidate `i` (0: "S_").
std::string substitution(std::size_t i) {
  if (i == 0) return "S_";
  const char* digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string seq;
  for (std::size_t v = i - 1;; v /= 36) {
    seq.insert(seq.begin(), digits[v % 36]);
    if (v < 36) break;
  }
  return "S" + seq + "_";
}

// f<Foo, B<Foo, Foo>, B<B<Foo, Foo>, B<Foo, Foo>>, ...>(Foo): each level names the previous one
// twice through a substitution, so the demangled text doubles per level (about 2^levels * 5
// characters) while the mangled name grows by 11 bytes. Candidates: f, Foo, B, then one per level.
std::string doubling_name(std::size_t levels) {
  std::string args = "3Foo1BI" + substitution(1) + substitution(1) + "E";
  for (std::size_t k = 2; k <= levels; ++k) {
    args += substitution(2) + "I" + substitution(1 + k) + substitution(1 + k) + "E";
  }
  return "_Z1fI" + args + "EvT_";
}

double seconds_of(const std::string& name, std::string* out) {
  const auto t0 = std::chrono::steady_clock::now();
  *out = demangle(name);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(DemanglerTest, OrdinaryNames) {
  EXPECT_EQ(demangle("_Z4vaddPKfS0_Pfi"), "vadd(float const*, float const*, float*, int)");
  EXPECT_EQ(demangle("vadd"), "vadd");
  EXPECT_EQ(demangle("_Znotvalid"), "_Znotvalid");
  EXPECT_EQ(mangled_back_references("_Z4vaddPKfS0_Pfi"), 1u);
  EXPECT_EQ(mangled_back_references("_Z1fIiEvT_"), 1u);
}

TEST(DemanglerTest, NameWithManyReferencesStillDemanglesInTheChild) {
  const std::string name = doubling_name(6);  // 12 references: the child path
  ASSERT_GT(mangled_back_references(name), DemangleLimits{}.max_direct_references);
  DemangleLimits in_process;
  in_process.max_direct_references = 1000;
  const std::string direct = demangle(name + "", in_process);
  EXPECT_EQ(direct.rfind("void f<Foo, B<Foo, Foo>, B<B<Foo, Foo>, B<Foo, Foo> >", 0), 0u) << direct;
  EXPECT_EQ(demangle(doubling_name(6)), direct);
}

// 230 bytes that demangle to 17 MB, and 450 bytes that would take hours and terabytes: both
// stay mangled, within about the deadline, and cost nothing the second time.
TEST(DemanglerTest, ExplodingNamesStayMangledWithinTheDeadline) {
  for (const std::size_t levels : {20, 40}) {
    const std::string name = doubling_name(levels);
    std::string out;
    const double first = seconds_of(name, &out);
    EXPECT_EQ(out, name) << levels;
    EXPECT_LT(first, 5.0) << levels;
    const double again = seconds_of(name, &out);
    EXPECT_EQ(out, name);
    EXPECT_LT(again, 0.1) << levels;
  }
}

TEST(DemanglerTest, OverlongNamesStayMangled) {
  std::string name = "_ZN", demangled;
  for (int i = 0; i < 250; ++i) {
    name += "3abc";  // abc::abc::...::abc(), 1 kB mangled
    demangled += i == 0 ? "abc" : "::abc";
  }
  name += "Ev";
  DemangleLimits narrow;
  narrow.max_mangled = 512;
  EXPECT_EQ(demangle(name, narrow), name);
  EXPECT_EQ(demangle(name), demangled + "()");
  const std::string huge = "_ZN" + std::string(20 * 1024, 'x');  // over the default 16 KiB
  EXPECT_EQ(demangle(huge), huge);
}

}  // namespace
}  // namespace kscope
