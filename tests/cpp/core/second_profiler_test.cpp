// A second profiler on the same GPU (docs/faults.md): kscope sessions that read counters wait
// for each other on the GPU's lock, saying for whom; a profiler of another kind is named in the
// error CUPTI's "hardware busy" gives (running_profilers).
#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "api/device_lock.hpp"
#include "core/logger.hpp"
#include "core/profiler_processes.hpp"
#include "kscope/profile.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

Options quiet() {
  Options o;
  o.verbosity = Verbosity::kSilent;
  return o;
}

// A child process that takes the lock of `uuid`, holds it for `hold` and exits; returns once it
// holds it.
pid_t hold_lock_in_child(const std::string& uuid, std::chrono::milliseconds hold) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    const DeviceLock lock(uuid, Logger(quiet()));
    (void)!::write(ready[1], "x", 1);
    std::this_thread::sleep_for(hold);
    ::_exit(0);
  }
  char c;
  (void)!::read(ready[0], &c, 1);
  ::close(ready[0]);
  ::close(ready[1]);
  return pid;
}

TEST(DeviceLockTest, TheSecondWaitsNamingTheFirstAndGetsItWhenItEnds) {
  const std::string dir = testing::scratch_dir("device_lock_wait");  // ends with '/'
  ::setenv("TMPDIR", dir.substr(0, dir.size() - 1).c_str(), 1);
  const std::string uuid = "GPU-test-" + std::to_string(::getpid());
  const pid_t first = hold_lock_in_child(uuid, std::chrono::milliseconds(400));
  std::string printed;
  Options opt;
  opt.verbosity = Verbosity::kInfo;
  opt.log = [&](std::string_view text) { printed += text; };
  const auto t0 = std::chrono::steady_clock::now();
  {
    const DeviceLock lock(uuid, Logger(opt));
    EXPECT_GT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(200));
  }
  ::waitpid(first, nullptr, 0);
  ::unsetenv("TMPDIR");
  EXPECT_EQ(printed, "[kscope] Waiting for kscope process " + std::to_string(first) + " (" +
                         command_line_of(::getpid()) + "), which measures on GPU " + uuid +
                         ", to finish (" + dir + "kscope-gpu-" + uuid + ".lock)\n");
}

// A Ctrl-C while waiting for the lock (kscope::set_interrupt_check) ends the wait.
TEST(DeviceLockTest, AnInterruptEndsTheWait) {
  const std::string dir = testing::scratch_dir("device_lock_interrupt");
  ::setenv("TMPDIR", dir.substr(0, dir.size() - 1).c_str(), 1);
  const std::string uuid = "GPU-interrupt-" + std::to_string(::getpid());
  const pid_t first = hold_lock_in_child(uuid, std::chrono::seconds(30));
  struct Interrupted {};
  const auto t0 = std::chrono::steady_clock::now();
  set_interrupt_check([t0] {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(200)) throw Interrupted{};
  });
  EXPECT_THROW(DeviceLock(uuid, Logger(quiet())), Interrupted);
  set_interrupt_check({});
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  ::kill(first, SIGKILL);
  ::waitpid(first, nullptr, 0);
  ::unsetenv("TMPDIR");
}

TEST(DeviceLockTest, AKilledHolderReleasesTheLock) {
  const std::string dir = testing::scratch_dir("device_lock_killed");
  ::setenv("TMPDIR", dir.c_str(), 1);
  const std::string uuid = "GPU-killed-" + std::to_string(::getpid());
  const pid_t first = hold_lock_in_child(uuid, std::chrono::seconds(30));
  ::kill(first, SIGKILL);
  ::waitpid(first, nullptr, 0);
  const auto t0 = std::chrono::steady_clock::now();
  { const DeviceLock lock(uuid, Logger(quiet())); }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  ::unsetenv("TMPDIR");
}

TEST(DeviceLockTest, AHolderThatWroteNothingYetIsAnotherKscopeProcess) {
  const std::string path = testing::scratch_dir("device_lock_empty") + "lock";
  std::ofstream(path) << "";
  const int fd = ::open(path.c_str(), O_RDONLY);
  EXPECT_EQ(lock_holder(fd), "another kscope process");
  ::close(fd);
  std::ofstream(path) << "77 python sweep.py --n 3\n";
  const int fd2 = ::open(path.c_str(), O_RDONLY);
  EXPECT_EQ(lock_holder(fd2), "kscope process 77 (python sweep.py --n 3)");
  ::close(fd2);
}

TEST(ProfilerProcessesTest, NamesTheProfilersOfAProcFileSystem) {
  const std::string proc = testing::scratch_dir("fake_proc");
  const auto process = [&](const std::string& pid, const std::string& comm) {
    std::filesystem::create_directories(proc + pid);
    std::ofstream(proc + pid + "/comm") << comm << "\n";
  };
  process("4300", "nsys");
  process("123", "ncu");
  process("456", "compute-sanitiz");  // the kernel keeps 15 characters
  process("789", "python3");
  process("self", "ncu");
  EXPECT_EQ(running_profilers(proc),
            "ncu (pid 123), compute-sanitizer (pid 456), nsys (pid 4300)");
  EXPECT_EQ(running_profilers(proc + "123/"), "");
}

TEST(ProfilerProcessesTest, FindsARunningNcu) {
  const std::string dir = testing::scratch_dir("fake_ncu_process");
  std::filesystem::copy_file("/bin/sleep", dir + "ncu",
                             std::filesystem::copy_options::overwrite_existing);
  const pid_t ncu = ::fork();
  if (ncu == 0) {
    ::execl((dir + "ncu").c_str(), "ncu", "30", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::string found;
  for (int i = 0; i < 100 && found.find("(pid " + std::to_string(ncu) + ")") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    found = running_profilers();
  }
  ::kill(ncu, SIGKILL);
  ::waitpid(ncu, nullptr, 0);
  EXPECT_NE(found.find("ncu (pid " + std::to_string(ncu) + ")"), std::string::npos) << found;
}

}  // namespace
}  // namespace kscope
