// The passive collector of a re-executed child records every annotation entered during a run
// (warm-up runs included) and nothing else.
#include "subprocess/child_collector.hpp"

#include <gtest/gtest.h>

#include "core/annotation_registry.hpp"
#include "kscope/annotation.hpp"

namespace kscope::subprocess {
namespace {

void run(ChildCollector& c, const RunId& id, const std::vector<std::string>& annotations) {
  auto& reg = AnnotationRegistry::instance();
  c.before_run(id, 0);
  reg.start_run(id);
  for (const auto& a : annotations) {
    begin_annotation(a);
    end_annotation();
  }
  (void)reg.finish_run();
  c.after_run(id, 0);
}

TEST(ChildCollectorTest, TracesAnnotationsOfEveryRunInOrder) {
  ChildCollector c;
  Options opt;
  c.begin(SessionInfo{"s", 0, 1, &opt, 0, ""});
  run(c, RunId{0, 0, true}, {"vadd"});
  run(c, RunId{0, 0, false}, {"vadd", "scale"});
  begin_annotation("outside");  // between runs: not part of the session
  end_annotation();
  EXPECT_TRUE(c.end().empty());
  run(c, RunId{0, 1, false}, {"late"});  // after end(): detached

  const auto t = c.trace();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].annotation, "vadd");
  EXPECT_TRUE(t[0].run.warmup);
  EXPECT_EQ(t[1].annotation, "vadd");
  EXPECT_EQ(t[1].run, (RunId{0, 0, false}));
  EXPECT_EQ(t[2].annotation, "scale");
  EXPECT_EQ(c.name(), "child");
}

}  // namespace
}  // namespace kscope::subprocess
