#include "api/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/interrupt_check.hpp"
#include "kscope/errors.hpp"

namespace kscope {
namespace {

// How often a process waiting for the lock tries it again and checks for an interrupt.
constexpr useconds_t kLockPollMicroseconds = 50'000;

}  // namespace

DeviceLock::DeviceLock(const std::string& uuid, const Logger& log) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  if (dir.size() > 1 && dir.back() == '/') dir.pop_back();  // TMPDIR=/scratch/ too
  const std::string path = dir + "/kscope-gpu-" + uuid + ".lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    throw Error("cannot open the GPU lock '" + path + "': " + std::strerror(errno) +
                ". Set TMPDIR to a writable directory shared by the ranks of this host.");
  }
  for (int tries = 0; ::flock(fd_, LOCK_EX | LOCK_NB) != 0; ++tries) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string why = std::strerror(errno);
      ::close(fd_);
      throw Error("cannot lock the GPU lock '" + path + "': " + why);
    }
    // Said at the second try: by then the holder, which writes who it is right after it took
    // the lock, has replaced what an earlier holder wrote.
    if (tries == 1) {
      log.info("Waiting for " + lock_holder(fd_) + ", which measures on GPU " + uuid +
               ", to finish (" + path + ")");
    }
    try {
      check_interrupt();  // a Ctrl-C of the caller's (kscope::set_interrupt_check)
    } catch (...) {
      ::close(fd_);
      throw;
    }
    ::usleep(kLockPollMicroseconds);
  }
  // Whom the next one waits for: this process, "<pid> <command line>".
  const std::string holder = std::to_string(::getpid()) + " " + command_line_of(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, holder.data(), holder.size(), 0);
}

std::string command_line_of(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}

std::string lock_holder(int fd) {
  char buf[512];
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string line(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  line = line.substr(0, line.find('\n'));
  const auto space = line.find(' ');
  if (line.empty() || space == 0) return "another kscope process";
  return "kscope process " + line.substr(0, space) +
         (space == std::string::npos || space + 1 == line.size() ? ""
                                                                 : " (" + line.substr(space + 1) + ")");
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

std::optional<DeviceLock> lock_for_shard(const ShardSpec& shard, const std::string& uuid,
                                         const Logger& log) {
  if (!shard.sharded() || uuid.empty()) return std::nullopt;
  return std::optional<DeviceLock>(std::in_place, uuid, log);
}

}  // namespace kscope
