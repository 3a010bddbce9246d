// The sanitizer tool on a real GPU with compute-sanitizer: planted bugs (an out-of-bounds write, a
// shared-memory race, an uninitialised read, a leak) are each found and attributed to the
// annotation and config that launched them; a clean kernel is ok; in a sweep where only one size
// is buggy, that config alone is named. Each test re-runs this binary for itself only
// (--gtest_filter), under compute-sanitizer, several times (docs/tools/sanitizer.md).
// compute-sanitizer's reports and logs stay in <build>/test-output/sanitizer_gpu_*/; when a test
// fails, the first lines of each report and the last lines of each log are printed too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "collect/sanitizer/check_summary.hpp"
#include "collect/sanitizer/sanitizer_locator.hpp"
#include "collect/sanitizer/sanitizer_report.hpp"
#include "kscope/kscope.hpp"
#include "sanitizer_kernels.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

using sanitizer::is_api_error;
using sanitizer::is_kernel_error;
using sanitizer::is_leak;

bool in_child() { return std::getenv("KSCOPE_CHILD_SESSION") != nullptr; }

constexpr std::size_t kReportLines = 60;  // of each XML report, printed on a failure
constexpr std::size_t kLogLines = 30;     // last lines of each log

// Prints the first `head` or the last `tail` lines of `path`.
void print_lines(const std::filesystem::path& path, std::size_t head, std::size_t tail) {
  std::ifstream in(path);
  std::deque<std::string> kept;
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (head > 0 && n > head) continue;
    kept.push_back(line);
    if (tail > 0 && kept.size() > tail) kept.pop_front();
  }
  std::cout << "==== " << path.string() << " (" << n << " lines; "
            << (head > 0 ? "first " + std::to_string(kept.size())
                         : "last " + std::to_string(kept.size()))
            << ") ====\n";
  for (const auto& l : kept) std::cout << l << "\n";
}

class SanitizerGpuTest : public ::testing::Test {
 protected:
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
    output_dir_ = o.output_prefix;
    return o;
  }

  // On a failure, what compute-sanitizer wrote: the raw data for whoever reads the log.
  void TearDown() override {
    if (in_child() || !HasFailure() || output_dir_.empty()) return;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(output_dir_)) files.push_back(e);
    std::sort(files.begin(), files.end());
    std::cout << "compute-sanitizer's reports and logs are in " << output_dir_ << "\n";
    for (const auto& f : files) {
      if (f.extension() == ".xml") print_lines(f, kReportLines, 0);
      if (f.extension() == ".log") print_lines(f, 0, kLogLines);
    }
  }

 private:
  std::string output_dir_;
};

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

// The errors `check` found in kernels: not leaks, not the CUDA API calls that failed after them.
std::vector<const Finding*> kernel_errors(const Results& r, const std::string& check) {
  std::vector<const Finding*> out;
  for (const Finding* f : of_check(r, check)) {
    if (is_kernel_error(*f)) out.push_back(f);
  }
  return out;
}

// One finding, for failure messages.
std::string describe(const Finding& f) {
  return f.check + " [" + f.category + "] " + f.kind + " | kernel '" + f.kernel + "' function '" +
         f.function + "' | config " + (f.config ? std::to_string(*f.config) : "?") +
         ", annotation '" + f.annotation + "', attribution " + f.attribution;
}

// `found` is not empty, and each was launched in `annotation` of config `config` by a kernel
// whose name contains `kernel`.
void expect_placed(const std::vector<const Finding*>& found, std::size_t config,
                   const std::string& annotation, const std::string& kernel) {
  EXPECT_FALSE(found.empty()) << "nothing found in kernel " << kernel;
  for (const Finding* f : found) {
    EXPECT_EQ(f->config, std::optional<std::size_t>(config)) << describe(*f);
    EXPECT_EQ(f->annotation, annotation) << describe(*f);
    EXPECT_EQ(f->attribution, "annotation") << describe(*f);
    EXPECT_NE(f->kernel.find(kernel), std::string::npos) << describe(*f);
  }
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Config "memory" writes out of bounds (memcheck; the CUDA context is unusable afterwards, so
// its buffers cannot be freed and show up as leaks of that config too), config "leak" leaks a
// buffer (memcheck's leak check), config "threads" races on shared memory (racecheck) and reads
// memory nobody wrote (initcheck).
TEST_F(SanitizerGpuTest, PlantedBugsAreFoundWhereTheyWereLaunched) {
  KSCOPE_NEEDS_COMPUTE_SANITIZER();
  Options o = options_for("sanitizer_gpu_planted");
  o.sanitizer.checks = {"memcheck", "racecheck", "initcheck"};
  o.sanitizer.leak_check = true;
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

  bool leak = false;
  for (const Finding* f : of_check(r, "memcheck")) {
    if (is_leak(*f)) {
      ASSERT_TRUE(f->config.has_value()) << describe(*f);
      EXPECT_EQ(f->attribution, "session") << describe(*f);
      EXPECT_NE(*f->config, 2u) << describe(*f);
      if (*f->config == 1) {
        EXPECT_EQ(f->size, std::optional<std::uint64_t>(kLeaked * sizeof(int)));
        leak = true;
      }
    } else if (is_api_error(*f)) {
      // The calls that failed after the out-of-bounds write broke the context: kept, with the
      // call that failed, never in config "threads".
      EXPECT_NE(f->config, std::optional<std::size_t>(2)) << describe(*f);
      EXPECT_TRUE(f->kernel.empty()) << describe(*f);
      EXPECT_EQ(f->function.rfind("cu", 0), 0u) << describe(*f);  // cudaFree, cuMemFree_v2
    }
  }
  EXPECT_TRUE(leak) << "memcheck did not report the leak";

  const auto oob = kernel_errors(r, "memcheck");  // the out-of-bounds write
  expect_placed(oob, 0, "oob", "write_indices");
  for (const Finding* f : oob) {
    EXPECT_EQ(f->kind, "Invalid __global__ write of size 4 bytes") << describe(*f);
    EXPECT_EQ(f->category, "Precise") << describe(*f);
    EXPECT_TRUE(ends_with(f->file, "sanitizer_kernels.cu")) << f->file;
    EXPECT_TRUE(f->line.has_value());
    ASSERT_TRUE(f->thread && f->block) << describe(*f);
    EXPECT_EQ(f->thread->x + 256 * f->block->x, static_cast<std::uint32_t>(n));
    EXPECT_FALSE(f->host_stack.empty());
  }
  const std::string summary = sanitizer::check_summary("memcheck", r.findings());
  EXPECT_EQ(summary.rfind("memcheck: 1 error in 1 kernel (kscope::testing::write_indices)", 0), 0u)
      << summary;

  expect_placed(kernel_errors(r, "racecheck"), 2, "race", "shared_race");
  expect_placed(kernel_errors(r, "initcheck"), 2, "uninit", "read_input");
}

TEST_F(SanitizerGpuTest, CleanKernelIsOk) {
  KSCOPE_NEEDS_COMPUTE_SANITIZER();
  Options o = options_for("sanitizer_gpu_clean");
  o.sanitizer.checks = {"memcheck", "racecheck", "initcheck", "synccheck"};
  o.sanitizer.leak_check = true;
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

TEST_F(SanitizerGpuTest, OnlyTheBuggySizeIsNamed) {
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
  const auto errors = kernel_errors(r, "memcheck");  // the access past the end at n=3001
  expect_placed(errors, 1, "double_pairs", "double_pairs");
  for (const Finding* f : errors) {
    // x[2t + 1] *= 2 reads before it writes: memcheck reports the read of x[n] (first GPU run:
    // "Invalid __global__ read of size 4 bytes"), by thread t = (n - 1) / 2 = 1500.
    EXPECT_EQ(f->kind.rfind("Invalid __global__ ", 0), 0u) << describe(*f);
    ASSERT_TRUE(f->thread && f->block) << describe(*f);
    EXPECT_EQ(f->thread->x + 256 * f->block->x, 1500u) << describe(*f);
  }
  // Everything else: the CUDA API calls that failed after it, in that config's run (or, seen
  // only when the whole sweep ran, without a config).
  for (const auto& f : r.findings()) {
    if (is_kernel_error(f)) continue;
    EXPECT_TRUE(is_api_error(f)) << describe(f);
    EXPECT_TRUE(!f.config || *f.config == 1) << describe(f);
  }
  const std::string summary = sanitizer::check_summary("memcheck", r.findings());
  EXPECT_EQ(summary.rfind("memcheck: 1 error in 1 kernel (kscope::testing::double_pairs)", 0), 0u)
      << summary;
}

}  // namespace
}  // namespace kscope
