#include "subprocess/child_marker.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "kscope/errors.hpp"

namespace kscope::subprocess {
namespace {

TEST(ChildMarkerTest, ParsesNameAndId) {
  const auto m = ChildMarker::parse("vadd:2", "/tmp/r.json");
  EXPECT_EQ(m.name, "vadd");
  EXPECT_EQ(m.id, 2);
  EXPECT_EQ(m.report_path, "/tmp/r.json");
  EXPECT_TRUE(m.matches("vadd", 2));
  EXPECT_FALSE(m.matches("vadd", 1));
  EXPECT_FALSE(m.matches("vad", 2));
}

TEST(ChildMarkerTest, NameMayContainColons) {
  const auto m = ChildMarker::parse("ns::gemm:bf16:0", "r");
  EXPECT_EQ(m.name, "ns::gemm:bf16");
  EXPECT_EQ(m.id, 0);
  EXPECT_EQ(m.session_value(), "ns::gemm:bf16:0");
}

TEST(ChildMarkerTest, EnvironmentCarriesBothVariables) {
  const ChildMarker m{"s", 3, "/out/ncu-output-s-3.child.json"};
  const auto env = m.environment();
  ASSERT_EQ(env.size(), 2u);
  EXPECT_EQ(env[0], (std::pair<std::string, std::string>{"KSCOPE_CHILD_SESSION", "s:3"}));
  EXPECT_EQ(env[1].first, "KSCOPE_CHILD_REPORT");
  EXPECT_EQ(env[1].second, "/out/ncu-output-s-3.child.json");
}

TEST(ChildMarkerTest, MalformedValuesAreErrorsNamingTheVariable) {
  for (const char* bad : {"vadd", "vadd:", ":1", "vadd:x", "vadd:-1", "vadd:99999999999"}) {
    try {
      (void)ChildMarker::parse(bad, "r");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("KSCOPE_CHILD_SESSION"), std::string::npos) << bad;
    }
  }
  EXPECT_THROW((void)ChildMarker::parse("vadd:0", ""), Error);
}

TEST(ChildMarkerTest, FromEnvironment) {
  ::unsetenv("KSCOPE_CHILD_SESSION");
  EXPECT_FALSE(ChildMarker::from_environment().has_value());
  ::setenv("KSCOPE_CHILD_SESSION", "vadd:1", 1);
  ::setenv("KSCOPE_CHILD_REPORT", "/tmp/x.json", 1);
  const auto m = ChildMarker::from_environment();
  ::unsetenv("KSCOPE_CHILD_SESSION");
  ::unsetenv("KSCOPE_CHILD_REPORT");
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->matches("vadd", 1));
  EXPECT_EQ(m->report_path, "/tmp/x.json");
}

}  // namespace
}  // namespace kscope::subprocess
