// The GPU lock of sharded processes and counter sessions (api/device_lock.hpp) between real
// processes: a second process waits until the first releases the GPU, naming it, however the
// first ends, and a Ctrl-C ends the wait; and the parent of a
// re-executing tool (ncu) holds it while its tool runs (api/external_session.hpp, with a fake
// ExternalTool), so two ranks sharing a GPU never measure at the same time.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "api/device_lock.hpp"
#include "api/external_session.hpp"
#include "api/output_prefix.hpp"
#include "api/sweep_plan.hpp"
#include "kscope/errors.hpp"
#include "kscope/profile.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kHold = std::chrono::milliseconds(300);

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

Options silent() {
  Options o;
  o.verbosity = Verbosity::kSilent;
  return o;
}

// An options' log that appends what kscope prints to `path`.
Options logging_to(const std::string& path) {
  Options o;
  o.verbosity = Verbosity::kInfo;
  o.log = [path](std::string_view text) { std::ofstream(path, std::ios::app) << text; };
  return o;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lock files of each test go to a directory of its own.
std::string lock_dir(const std::string& name) {
  const std::string dir = testing::scratch_dir(name);
  ::setenv("TMPDIR", dir.c_str(), 1);
  return dir;
}

const std::string kUuid = "GPU-00000000-1111-2222-3333-444444444444";

// Forks a process that takes the lock, writes one byte to `ready` and then sleeps `hold`
// (forever when zero) before it exits.
pid_t holder(int ready, std::chrono::milliseconds hold) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  {
    const DeviceLock lock(kUuid, Logger(silent()));
    if (::write(ready, "x", 1) != 1) ::_exit(2);
    if (hold.count() == 0) ::pause();
    std::this_thread::sleep_for(hold);
  }
  ::_exit(0);
}

TEST(DeviceLockTest, ASecondProcessWaitsUntilTheFirstReleasesTheGpu) {
  const std::string dir = lock_dir("device_lock_wait");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t first = holder(ready[1], kHold);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);  // the first holds the lock now
  const std::string log = dir + "second.log";
  const auto t0 = Clock::now();
  { const DeviceLock lock(kUuid, Logger(logging_to(log))); }
  const auto waited = Clock::now() - t0;
  int status = 0;
  ASSERT_EQ(::waitpid(first, &status, 0), first);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_GE(waited, kHold - std::chrono::milliseconds(100));
  // Named by what it wrote into the lock: its pid and command line (this test's, forked).
  EXPECT_EQ(read(log), "[kscope] Waiting for kscope process " + std::to_string(first) + " (" +
                           command_line_of(::getpid()) + "), which measures on GPU " + kUuid +
                           ", to finish (" + dir + "kscope-gpu-" + kUuid + ".lock)\n");
}

// A Ctrl-C while waiting (kscope::set_interrupt_check, the Python front's KeyboardInterrupt)
// ends the wait.
TEST(DeviceLockTest, AnInterruptEndsTheWait) {
  lock_dir("device_lock_interrupt");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t first = holder(ready[1], std::chrono::milliseconds(0));
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  struct Interrupted {};
  const auto t0 = Clock::now();
  set_interrupt_check([t0] {
    if (Clock::now() - t0 > std::chrono::milliseconds(200)) throw Interrupted{};
  });
  EXPECT_THROW(DeviceLock(kUuid, Logger(silent())), Interrupted);
  set_interrupt_check({});
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(1));
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  ::waitpid(first, nullptr, 0);
}

TEST(DeviceLockTest, AHolderIsNamedByWhatItWrote) {
  const std::string path = testing::scratch_dir("device_lock_holder") + "lock";
  const auto holder_of = [&](const std::string& text) {
    std::ofstream(path) << text;
    const int fd = ::open(path.c_str(), O_RDONLY);
    const std::string who = lock_holder(fd);
    ::close(fd);
    return who;
  };
  EXPECT_EQ(holder_of(""), "another kscope process");  // it has not written yet
  EXPECT_EQ(holder_of("77 python sweep.py --n 3\n"), "kscope process 77 (python sweep.py --n 3)");
  EXPECT_EQ(holder_of("77 \n"), "kscope process 77");
}

TEST(DeviceLockTest, AProcessKilledWhileItHoldsTheGpuReleasesIt) {
  const std::string dir = lock_dir("device_lock_killed");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t first = holder(ready[1], std::chrono::milliseconds(0));
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(first, &status, 0), first);
  const std::string log = dir + "after.log";
  { const DeviceLock lock(kUuid, Logger(logging_to(log))); }
  EXPECT_EQ(read(log), "");  // free at once: no waiting
}

TEST(DeviceLockTest, ALockFileThatCannotBeOpenedSaysWhatToSet) {
  ::setenv("TMPDIR", "/nonexistent/kscope-lock-dir", 1);
  try {
    const DeviceLock lock(kUuid, Logger(silent()));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot open the GPU lock '/nonexistent/kscope-lock-dir/kscope-gpu-" + kUuid +
                  ".lock': No such file or directory. Set TMPDIR to a writable directory shared "
                  "by the ranks of this host.");
  }
}

TEST(DeviceLockTest, OnlyAShardedProcessOfAGpuWithAUuidTakesIt) {
  lock_dir("device_lock_for_shard");
  ShardSpec one;
  ShardSpec rank1;
  rank1.index = 1;
  rank1.count = 2;
  const Logger log(silent());
  EXPECT_FALSE(lock_for_shard(one, kUuid, log).has_value());
  EXPECT_FALSE(lock_for_shard(rank1, "", log).has_value());
  const auto held = lock_for_shard(rank1, kUuid, log);
  EXPECT_TRUE(held.has_value());
}

// A re-executing tool that "measures" for kHold: it writes when it starts and ends to the file
// the process gave it, and hands back one record per run of every config.
std::string g_times_path;

class TimedExternal : public ExternalTool {
 public:
  [[nodiscard]] std::string version() const override { return "fake 1"; }
  [[nodiscard]] ExternalRun run(const SessionInfo& info, const std::vector<Config>& configs,
                                const Logger&, const ExternalPartSink& on_part) override {
    std::ofstream(g_times_path, std::ios::app) << now_ns() << "\n";
    std::this_thread::sleep_for(kHold);
    ExternalRun out;
    out.metadata.gpu = "fake GPU";
    for (const auto& c : configs) {
      for (int r = 0; r < info.options->runs; ++r) {
        const RunId run{c.index(), static_cast<std::size_t>(r), false};
        out.output.runs.push_back({run, {"region"}, {}});
        KernelRecord k;
        k.annotation = "region";
        k.kernel = k.mangled = "k";
        k.run = run;
        k.metrics.push_back({kTimeMetric, 100.0, std::string("ns")});
        out.output.records.push_back(k);
      }
    }
    on_part(out);
    std::ofstream(g_times_path, std::ios::app) << now_ns() << "\n";
    return out;
  }
};

std::unique_ptr<ExternalTool> make_timed(const Options&) { return std::make_unique<TimedExternal>(); }

// Rank `rank` of 2 under the fake tool, in a process of its own once the pipe `go` is closed by
// the parent; exits 0 when its share's result came back.
pid_t external_rank(int rank, const int (&go)[2], const std::string& dir) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::close(go[1]);
  char byte = 0;
  if (::read(go[0], &byte, 1) != 0) ::_exit(3);  // both ranks start together
  g_times_path = dir + "rank" + std::to_string(rank) + ".times";
  try {
    ToolEntry tool;
    tool.name = "timed";
    tool.make_external = make_timed;
    std::vector<Config> configs;
    for (int c = 0; c < 4; ++c) {
      configs.emplace_back(std::vector<Value>{c}, std::vector<std::string>{"n"});
      configs.back().set_index(static_cast<std::size_t>(c));
    }
    Options opt = logging_to(dir + "rank" + std::to_string(rank) + ".log");
    opt.runs = 2;
    opt.thermal.mode = "off";
    opt.shard = std::to_string(rank) + "/2";
    const ShardSpec shard = resolve_shard(opt.shard, [](const char*) { return nullptr; });
    const std::string base = resolve_output_prefix(dir);
    opt.output_prefix = shard_prefix(base, shard);
    const Logger log(opt);
    const Results r =
        profile_external(tool, "locked", 0, configs, opt, plan_sweep("locked", configs, opt, log,
                                                                     base), kUuid);  // fmt: skip
    ::_exit(r.raw().size() == 4 ? 0 : 4);  // 2 configs x 2 runs
  } catch (const std::exception& e) {
    std::ofstream(dir + "rank" + std::to_string(rank) + ".log", std::ios::app) << e.what();
    ::_exit(5);
  }
}

TEST(DeviceLockTest, TheParentOfAReexecutingToolHoldsTheGpuWhileItsToolRuns) {
  const std::string dir = lock_dir("device_lock_external");
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t a = external_rank(0, go, dir);
  const pid_t b = external_rank(1, go, dir);
  ::close(go[1]);
  for (const pid_t pid : {a, b}) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << read(dir + "rank0.log") << read(dir + "rank1.log");
  }
  std::int64_t start0 = 0, end0 = 0, start1 = 0, end1 = 0;
  std::istringstream(read(dir + "rank0.times")) >> start0 >> end0;
  std::istringstream(read(dir + "rank1.times")) >> start1 >> end1;
  ASSERT_GT(end0, start0);
  ASSERT_GT(end1, start1);
  EXPECT_TRUE(end0 <= start1 || end1 <= start0)
      << "the tools ran at the same time: [" << start0 << ", " << end0 << "] and [" << start1
      << ", " << end1 << "]";
  const std::string waiting = "), which measures on GPU " + kUuid + ", to finish";
  const bool waited0 = read(dir + "rank0.log").find(waiting) != std::string::npos;
  const bool waited1 = read(dir + "rank1.log").find(waiting) != std::string::npos;
  EXPECT_NE(waited0, waited1);  // exactly the one that came second waited
}

}  // namespace
}  // namespace kscope
