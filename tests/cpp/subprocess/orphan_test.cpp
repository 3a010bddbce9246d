// No orphan keeps the GPU: a child of run_process dies with the parent that started it
// (PR_SET_PDEATHSIG), and a re-run program's ParentWatch ends it when its tool is killed. Each
// test forks a stand-in parent, SIGKILLs it, and checks that the process below it is gone
// within a second.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "subprocess/parent_watch.hpp"
#include "subprocess/process_runner.hpp"
#include "support/gpu_test.hpp"

namespace kscope::subprocess {
namespace {

// Gone, or a zombie no one reaps (a container's init may not).
bool gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const auto close = text.rfind(')');
  return close != std::string::npos && text.substr(close + 2, 1) == "Z";
}

pid_t read_pid(const std::string& path) {
  for (int i = 0; i < 500; ++i) {
    std::ifstream in(path);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

bool gone_within_a_second(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!gone(pid)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Forks a stand-in parent running `body`, waits for the pid it writes at `pid_file`, SIGKILLs
// the parent and returns the pid read.
template <class Body>
pid_t kill_parent_of(const std::string& pid_file, Body body) {
  const pid_t parent = ::fork();
  if (parent == 0) {
    body();
    ::_exit(0);
  }
  const pid_t below = read_pid(pid_file);
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  return below;
}

TEST(OrphanTest, AChildOfRunProcessDiesWithItsParent) {
  const std::string pid_file = testing::scratch_dir("orphan_child") + "child.pid";
  const pid_t child = kill_parent_of(pid_file, [&] {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "echo $$ > '" + pid_file + "'; exec sleep 30"};
    (void)run_process(spec);
  });
  ASSERT_GT(child, 0);
  EXPECT_TRUE(gone_within_a_second(child)) << "pid " << child << " outlived its parent";
  if (!gone(child)) ::kill(child, SIGKILL);
}

TEST(OrphanTest, AReRunProgramEndsWhenItsToolIsKilled) {
  const std::string pid_file = testing::scratch_dir("orphan_watch") + "program.pid";
  const pid_t program = kill_parent_of(pid_file, [&] {
    const pid_t pid = ::fork();  // the re-run program, below the tool
    if (pid == 0) {
      const ParentWatch watch;
      std::ofstream(pid_file) << ::getpid() << "\n";
      std::this_thread::sleep_for(std::chrono::seconds(30));
      ::_exit(0);
    }
    std::this_thread::sleep_for(std::chrono::seconds(30));
  });
  ASSERT_GT(program, 0);
  EXPECT_TRUE(gone_within_a_second(program)) << "pid " << program << " outlived its tool";
  if (!gone(program)) ::kill(program, SIGKILL);
}

TEST(OrphanTest, AWatchedProcessWhoseParentLivesGoesOn) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    const ParentWatch watch;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));  // joined promptly
}

}  // namespace
}  // namespace kscope::subprocess
