// The sanitizer tool on a real GPU with compute-sanitizer: planted bugs (an out-of-bounds write, a
// shared-memory race, an uninitialised read, a leak) are each found and attributed to the
// annotation and config that launched them; a clean kernel is ok; in a sweep where only one size
// is buggy, that config alone is named. Each test re-runs this binary for itself only
// (--gtest_filter), under compute-sanitizer, several times (docs/tools/sanitizer.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "collect/sanitizer/sanitizer_locator.hpp"
#include "kscope/kscope.hpp"
#include "sanitizer_kernels.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

bool in_child() { return std::getenv("KSCOPE_CHILD_SESSION") != nullptr; }

// Options for a test: re-run only this test, write under the build tree (the parent makes the
// directory; the re-run program must not wipe it).
Options options_for(const std::string& dir) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  Options o;
  o.verbosity = Verbosity::kInfo;
  o.reexec_argv = {std::filesystem::read_symlink("/proc/self/exe").string(),
                   std::string("--gtest_filter=") + test->test_suite_name() + "." + test->name()};
  o.output_prefix = in_child() ? std::string(KSCOPE_BINARY_DIR) + "/test-output/" + dir + "/"
                               : testing::scratch_dir(dir);
  return o;
}

#define KSCOPE_NEEDS_COMPUTE_SANITIZER()                       \
  do {                                                         \
    try {                                                      \
      (void)sanitizer::locate_compute_sanitizer();             \
    } catch (const ToolError& e) {                             \
      GTEST_SKIP() << "needs compute-sanitizer: " << e.what(); \
    }                                                          \
  } while (false)

std::vector<const Finding*> of_check(const Results& r, const std::string& check) {
  std::vector<const Finding*> out;
  for (const auto& f : r.findings()) {
    if (f.check == check) out.push_back(&f);
  }
  return out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Config "memory" writes out of bounds (memcheck; the CUDA context is unusable afterwards, so
// its buffers cannot be freed and show up as leaks of that config too), config "leak" leaks a
// buffer (memcheck's leak check), config "threads" races on shared memory (racecheck) and reads
// memory nobody wrote (initcheck).
TEST(SanitizerGpuTest, PlantedBugsAreFoundWhereTheyWereLaunched) {
  KSCOPE_NEEDS_COMPUTE_SANITIZER();
  Options o = options_for("sanitizer_gpu_planted");
  o.sanitizer_checks = {"memcheck", "racecheck", "initcheck"};
  o.sanitizer_leak_check = true;
  constexpr int n = 1000;
  constexpr std::size_t kLeaked = 4096;
  const auto r = sanitize(
      "planted", configs({"memory", "leak", "threads"}, "bugs"),
      [](const Config& c) {
        const std::string bugs = c.get<std::string>(0);
        if (bugs == "memory" || bugs == "leak") {
          int* a = testing::device_ints(n);
          int* b = testing::device_ints(n);
          int* sum = testing::device_ints(n);
          testing::zero_ints(a, n);
          testing::zero_ints(b, n);
          {
            Annotation setup("setup");
            testing::launch_add(a, b, sum, n);
          }
          if (bugs == "leak") {
            Annotation leak("leak");
            (void)testing::device_ints(kLeaked);  // never freed
          } else {
            Annotation oob("oob");
            testing::launch_write_indices(sum, n, 1);  // writes sum[n]
          }
          testing::synchronize_quietly();
          testing::free_device_memory(a);
          testing::free_device_memory(b);
          testing::free_device_memory(sum);
        } else {
          int* in = testing::device_ints(256);  // never written
          int* out = testing::device_ints(256);
          {
            Annotation race("race");
            testing::launch_shared_race(out);
          }
          {
            Annotation uninit("uninit");
            testing::launch_read_input(in, out);
          }
          testing::synchronize_quietly();
          testing::free_device_memory(in);
          testing::free_device_memory(out);
        }
      },
      o);
  r.print(std::cout);  // the findings table (issue 8's closing note)
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.metadata().tool, "sanitizer");

  bool oob = false, leak = false;
  for (const Finding* f : of_check(r, "memcheck")) {
    ASSERT_TRUE(f->config.has_value()) << f->kind << " " << f->attribution;
    if (f->category == "Leak") {
      EXPECT_EQ(f->attribution, "session");
      EXPECT_NE(*f->config, 2u) << f->kind;
      if (*f->config == 1) {
        EXPECT_EQ(f->size, std::optional<std::uint64_t>(kLeaked * sizeof(int)));
        leak = true;
      }
      continue;
    }
    EXPECT_EQ(*f->config, 0u) << f->kind;
    EXPECT_EQ(f->annotation, "oob") << f->kind;
    EXPECT_EQ(f->attribution, "annotation");
    EXPECT_NE(f->kernel.find("write_indices"), std::string::npos) << f->kernel;
    EXPECT_EQ(f->kind, "Invalid __global__ write of size 4 bytes");
    EXPECT_TRUE(ends_with(f->file, "sanitizer_kernels.cu")) << f->file;
    EXPECT_TRUE(f->line.has_value());
    ASSERT_TRUE(f->thread && f->block);
    EXPECT_EQ(f->thread->x + 256 * f->block->x, static_cast<std::uint32_t>(n));
    EXPECT_FALSE(f->host_stack.empty());
    oob = true;
  }
  EXPECT_TRUE(oob) << "memcheck did not report the out-of-bounds write";
  EXPECT_TRUE(leak) << "memcheck did not report the leak";

  const auto races = of_check(r, "racecheck");
  ASSERT_FALSE(races.empty()) << "racecheck did not report the shared-memory race";
  for (const Finding* f : races) {
    EXPECT_EQ(f->annotation, "race");
    EXPECT_EQ(f->config, std::optional<std::size_t>(2));
    EXPECT_NE(f->kernel.find("shared_race"), std::string::npos) << f->kernel;
  }

  const auto reads = of_check(r, "initcheck");
  ASSERT_FALSE(reads.empty()) << "initcheck did not report the uninitialised read";
  for (const Finding* f : reads) {
    EXPECT_EQ(f->annotation, "uninit") << f->kind;
    EXPECT_EQ(f->config, std::optional<std::size_t>(2));
    EXPECT_NE(f->kernel.find("read_input"), std::string::npos) << f->kernel;
  }
}

TEST(SanitizerGpuTest, CleanKernelIsOk) {
  KSCOPE_NEEDS_COMPUTE_SANITIZER();
  Options o = options_for("sanitizer_gpu_clean");
  o.sanitizer_checks = {"memcheck", "racecheck", "initcheck", "synccheck"};
  o.sanitizer_leak_check = true;
  const auto r = sanitize(
      "clean", configs({256, 4096}, "n"),
      [](const Config& c) {
        const int n = c.get<int>(0);
        int* a = testing::device_ints(n);
        int* b = testing::device_ints(n);
        int* sum = testing::device_ints(n);
        testing::zero_ints(a, n);
        testing::zero_ints(b, n);
        {
          Annotation add("add");
          testing::launch_add(a, b, sum, n);
        }
        testing::synchronize_quietly();
        testing::free_device_memory(a);
        testing::free_device_memory(b);
        testing::free_device_memory(sum);
      },
      o);
  r.print(std::cout);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.findings().empty());
}

TEST(SanitizerGpuTest, OnlyTheBuggySizeIsNamed) {
  KSCOPE_NEEDS_COMPUTE_SANITIZER();
  Options o = options_for("sanitizer_gpu_sweep");
  const auto r = sanitize(
      "pairs", configs({1024, 3001, 4096}, "n"),
      [](const Config& c) {
        const int n = c.get<int>(0);
        float* x = testing::device_floats_zeroed(static_cast<std::size_t>(n));
        {
          Annotation pairs("double_pairs");
          testing::launch_double_pairs(x, n);  // one element past the end only for odd n
        }
        testing::synchronize_quietly();
        testing::free_device_memory(x);
      },
      o);
  r.print(std::cout);
  ASSERT_FALSE(r.ok());
  for (const auto& f : r.findings()) {
    EXPECT_EQ(f.config, std::optional<std::size_t>(1)) << f.kind;
    EXPECT_EQ(f.annotation, "double_pairs");
    EXPECT_EQ(f.attribution, "annotation");
    EXPECT_NE(f.kernel.find("double_pairs"), std::string::npos) << f.kernel;
    EXPECT_EQ(f.kind.rfind("Invalid __global__", 0), 0u) << f.kind;
  }
}

}  // namespace
}  // namespace kscope
