#include "core/demangler.hpp"

#include <cxxabi.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace kscope {
namespace {

std::optional<std::string> demangle_here(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !out) return std::nullopt;
  return std::string(out.get());
}

// In a child process, so that a name whose output explodes can be stopped: the parent reads the
// text under the deadline and the cap and kills the child past either.
std::optional<std::string> demangle_in_child(const std::string& name, const DemangleLimits& limits) {
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    close(fds[0]);
    int status = 0;
    char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status == 0 && out != nullptr) {
      const char* p = out;
      std::size_t left = std::strlen(out);
      while (left > 0) {
        const ssize_t n = write(fds[1], p, left);
        if (n <= 0) break;
        p += n;
        left -= static_cast<std::size_t>(n);
      }
    }
    _exit(status == 0 ? 0 : 1);
  }
  close(fds[1]);
  std::string text;
  bool within = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.deadline_ms);
  char buf[16384];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      within = false;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      within = false;
      break;
    }
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end: the child is done
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > limits.max_demangled) {
      within = false;
      break;
    }
  }
  close(fds[0]);
  if (!within) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!within || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) return std::nullopt;
  return text;
}

// Names seen before: hot paths (ignore-list matching per kernel record) demangle the same few
// names again and again, and a hostile name must cost its deadline once only.
struct Cache {
  std::mutex mu;
  std::unordered_map<std::string, std::string> names;
};

Cache& cache() {
  static auto* c = new Cache();  // never destroyed: demangle() may run during static teardown
  return *c;
}

bool seq_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }

}  // namespace

std::size_t mangled_back_references(std::string_view mangled) {
  std::size_t count = 0;
  for (std::size_t i = 0; i + 1 < mangled.size(); ++i) {
    if (mangled[i] != 'S' && mangled[i] != 'T') continue;
    std::size_t j = i + 1;
    while (j < mangled.size() && seq_digit(mangled[j])) ++j;
    if (j < mangled.size() && mangled[j] == '_') ++count;
  }
  return count;
}

std::string demangle(std::string_view mangled, const DemangleLimits& limits) {
  if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z') return std::string(mangled);
  if (mangled.size() > limits.max_mangled) return std::string(mangled);
  std::string name(mangled);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.names.find(name);
    if (it != c.names.end()) return it->second;
  }
  const auto out = mangled_back_references(name) <= limits.max_direct_references
                       ? demangle_here(name)
                       : demangle_in_child(name, limits);
  std::string result = out ? *out : name;
  std::lock_guard<std::mutex> lock(c.mu);
  constexpr std::size_t kMaxCached = 4096;
  if (c.names.size() >= kMaxCached) c.names.clear();
  c.names.emplace(std::move(name), result);
  return result;
}

}  // namespace kscope
