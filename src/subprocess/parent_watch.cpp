#include "subprocess/parent_watch.hpp"

#include <signal.h>
#include <unistd.h>

#include <chrono>

namespace kscope::subprocess {

ParentWatch::ParentWatch()
    : parent_(::getppid()), thread_([this] {
        while (!stop_.load()) {
          if (::getppid() != parent_) ::kill(::getpid(), SIGKILL);
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }) {}

ParentWatch::~ParentWatch() {
  stop_.store(true);
  thread_.join();
}

}  // namespace kscope::subprocess
