#include "api/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "kscope/errors.hpp"

namespace kscope {

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
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  log.info("Waiting for another kscope process that measures on GPU " + uuid + " (" + path + ")");
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const std::string why = std::strerror(errno);
      ::close(fd_);
      throw Error("cannot lock the GPU lock '" + path + "': " + why);
    }
  }
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
