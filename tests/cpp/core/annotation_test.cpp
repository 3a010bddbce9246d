// Annotations need no GPU: NVTX calls are no-ops without an injected tool.
#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

#include "core/annotation_registry.hpp"
#include "kscope/annotation.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

class AnnotationTest : public ::testing::Test {
 protected:
  void SetUp() override { AnnotationRegistry::instance().start_run(RunId{0, 0, false}); }
  void TearDown() override { (void)AnnotationRegistry::instance().finish_run(); }
};

TEST_F(AnnotationTest, RaiiOpensAndCloses) {
  {
    Annotation a("vadd");
    EXPECT_EQ(current_annotation(), "vadd");
  }
  EXPECT_EQ(current_annotation(), "");
}

TEST_F(AnnotationTest, AnEmptyNameIsRefusedAndTheNextAnnotationStillOpens) {
  // "" could never be closed: it is also what current_annotation() says when none is open.
  try {
    Annotation a("");
    FAIL();
  } catch (const AnnotationError& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid annotation name '': an annotation needs a non-empty name (it becomes "
                 "the Annotation column).");
  }
  EXPECT_EQ(current_annotation(), "");
  Annotation next("next");
  EXPECT_EQ(current_annotation(), "next");
}

TEST_F(AnnotationTest, ANameWithANulIsRefused) {
  // It reached the tables and CSV (issue 38).
  try {
    Annotation a(std::string_view("a\0b", 3));
    FAIL();
  } catch (const AnnotationError& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid annotation name 'a\\x00b': it contains a NUL character (at position 1), "
                 "which NVTX, the tables and CSV cannot carry. Rename it.");
  }
  EXPECT_EQ(current_annotation(), "");
}

TEST_F(AnnotationTest, NestingIsAnErrorWithTheReferenceText) {
  Annotation outer("outer");
  try {
    Annotation inner("inner");
    FAIL();
  } catch (const AnnotationError& e) {
    EXPECT_STREQ(e.what(),
                 "Nested annotations are not supported. Cannot enter annotation 'inner' while "
                 "another annotation is active ('outer' is open).");
  }
  EXPECT_EQ(current_annotation(), "outer");
}

TEST_F(AnnotationTest, NestingAcrossThreadsIsAlsoAnError) {
  Annotation outer("outer");
  bool threw = false;
  std::thread t([&] {
    try {
      Annotation inner("other");
    } catch (const AnnotationError&) {
      threw = true;
    }
  });
  t.join();
  EXPECT_TRUE(threw);
}

TEST_F(AnnotationTest, ReusingANameInOneRunIsAnError) {
  { Annotation a("duplicate_test"); }
  try {
    Annotation b("duplicate_test");
    FAIL();
  } catch (const AnnotationError& e) {
    EXPECT_STREQ(e.what(),
                 "Annotation name 'duplicate_test' has already been used in this profiling run. "
                 "Each annotation must have a unique name.");
  }
}

TEST_F(AnnotationTest, NamesCanBeReusedInTheNextRun) {
  { Annotation a("x"); }
  (void)AnnotationRegistry::instance().finish_run();
  AnnotationRegistry::instance().start_run(RunId{0, 1, false});
  EXPECT_NO_THROW({ Annotation b("x"); });
}

TEST_F(AnnotationTest, RunLogRecordsEnteredAndFailed) {
  { Annotation a("first"); }
  try {
    Annotation b("second");
    throw std::runtime_error("boom");
  } catch (const std::runtime_error&) {
  }
  const RunLog log = AnnotationRegistry::instance().finish_run();
  EXPECT_EQ(log.entered, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(log.failed, (std::vector<std::string>{"second"}));
  AnnotationRegistry::instance().start_run(RunId{0, 1, false});
}

TEST_F(AnnotationTest, AnnotateWithIgnoreFailuresSwallowsAndMarksFailed) {
  EXPECT_NO_THROW(annotate("a", [] { throw std::runtime_error("boom"); }, true));
  EXPECT_THROW(annotate("b", [] { throw std::runtime_error("boom"); }, false), std::runtime_error);
  const RunLog log = AnnotationRegistry::instance().finish_run();
  EXPECT_EQ(log.failed, (std::vector<std::string>{"a", "b"}));
  AnnotationRegistry::instance().start_run(RunId{0, 1, false});
}

TEST_F(AnnotationTest, MacroForm) {
  {
    KSCOPE_ANNOTATE("macro");
    EXPECT_EQ(current_annotation(), "macro");
  }
  EXPECT_EQ(current_annotation(), "");
}

TEST_F(AnnotationTest, SnapshotSeesOpenAnnotationAndRun) {
  AnnotationRegistry::instance().start_run(RunId{3, 4, false});
  Annotation a("snap");
  const auto s = AnnotationRegistry::instance().snapshot();
  EXPECT_TRUE(s.in_run);
  EXPECT_EQ(AnnotationRegistry::instance().name_of(s.annotation), "snap");
  EXPECT_EQ(s.run.config, 3u);
  EXPECT_EQ(s.run.run, 4u);
}

TEST(AnnotationPayloadTest, RoundTripsConfigAndRun) {
  const std::uint64_t p = AnnotationRegistry::nvtx_payload(RunId{123, 45, false}, true);
  RunId r;
  ASSERT_TRUE(AnnotationRegistry::decode_payload(p, &r));
  EXPECT_EQ(r.config, 123u);
  EXPECT_EQ(r.run, 45u);
  EXPECT_EQ(AnnotationRegistry::nvtx_payload(RunId{1, 1, false}, false), 0u);
  EXPECT_EQ(AnnotationRegistry::nvtx_payload(RunId{1, 1, true}, true), 0u);
  EXPECT_FALSE(AnnotationRegistry::decode_payload(0, &r));
}

}  // namespace
}  // namespace kscope

namespace kscope {
namespace {

TEST(AnnotationListenerTest, ListenersSeeEnterExitInOrderAndForgottenAnnotations) {
  auto& reg = AnnotationRegistry::instance();
  std::vector<std::string> seen;
  const auto a = reg.add_listener([&](bool in, const std::string& n) { seen.push_back("a" + std::string(in ? "+" : "-") + n); });
  const auto b = reg.add_listener([&](bool in, const std::string& n) { seen.push_back("b" + std::string(in ? "+" : "-") + n); });
  reg.start_run(RunId{0, 0, false});
  { Annotation x("x"); }
  begin_annotation("left_open");
  (void)reg.finish_run();  // closes it and tells the listeners
  reg.remove_listener(a);
  reg.start_run(RunId{0, 1, false});
  { Annotation y("y"); }
  (void)reg.finish_run();
  reg.remove_listener(b);
  EXPECT_EQ(seen, (std::vector<std::string>{"a+x", "b+x", "a-x", "b-x", "a+left_open", "b+left_open",
                                            "a-left_open", "b-left_open", "b+y", "b-y"}));
}

}  // namespace
}  // namespace kscope
