// The profilers running on the host (core/profiler_processes), which the error of CUPTI's
// "hardware busy" names (docs/faults.md: a second profiler on the same GPU). kscope's own
// sessions wait for each other on the GPU's lock instead (device_lock_test.cpp).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/profiler_processes.hpp"
#include "support/gpu_test.hpp"

namespace kscope {
namespace {

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
