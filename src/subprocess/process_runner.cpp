#include "subprocess/process_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "core/interrupt_check.hpp"
#include "kscope/errors.hpp"
#include "subprocess/executable_lookup.hpp"
#include "subprocess/line_tail.hpp"

extern char** environ;

namespace kscope::subprocess {
namespace {

// After SIGTERM a child gets this long to exit before SIGKILL.
constexpr auto kKillGrace = std::chrono::seconds(5);

class Pipe {
 public:
  Pipe() {
    if (pipe2(fds_.data(), O_CLOEXEC) != 0) {
      throw ToolError(std::string("cannot create a pipe for a child process: ") + std::strerror(errno));
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;             // non-copyable
  Pipe& operator=(const Pipe&) = delete;  // non-copyable
  [[nodiscard]] int read_end() const { return fds_[0]; }
  [[nodiscard]] int write_end() const { return fds_[1]; }
  void close_read() { close_fd(0); }
  void close_write() { close_fd(1); }

 private:
  void close_fd(int i) {
    if (fds_[i] >= 0) ::close(fds_[i]);
    fds_[i] = -1;
  }
  std::array<int, 2> fds_{-1, -1};
};

std::vector<std::string> merged_environment(
    const std::vector<std::pair<std::string, std::string>>& additions) {
  std::map<std::string, std::string> replaced;
  for (const auto& [k, v] : additions) replaced[k] = v;
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (replaced.count(entry.substr(0, eq)) == 0) out.push_back(entry);
  }
  for (const auto& [k, v] : replaced) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// The program's path: argv[0] when it holds a '/', else the first executable of that name in
// PATH (as execvp looks it up); "" when there is none.
std::string program_path(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  return find_in_path(program, path ? path : "/usr/local/bin:/usr/bin:/bin");
}

// Starts the program with stderr (and stdout, when out_fd >= 0) on the given pipe ends. The
// child is killed (SIGKILL) when the thread that started it ends, so that a parent killed while
// an ncu part runs leaves no ncu holding the GPU: prctl(PR_SET_PDEATHSIG) between fork and
// exec, which posix_spawn cannot do. Only async-signal-safe calls run in the child before exec;
// an exec failure comes back through a close-on-exec pipe.
pid_t spawn(const std::string& program, char** argv, char** envp, int err_fd, int out_fd) {
  const auto cannot_start = [&](int error) {
    return ToolError("cannot start '" + program + "': " + std::strerror(error) +
                     ". Check that the path exists and is executable.");
  };
  const std::string path = program_path(program);
  if (path.empty()) throw cannot_start(ENOENT);
  Pipe status;
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    throw ToolError("cannot start '" + program + "': fork failed: " + std::strerror(errno));
  }
  if (pid == 0) {
    int error = 0;
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) error = ESRCH;
    if (error == 0 && ::dup2(err_fd, STDERR_FILENO) < 0) error = errno;
    if (error == 0 && out_fd >= 0 && ::dup2(out_fd, STDOUT_FILENO) < 0) error = errno;
    if (error == 0) {
      ::execve(path.c_str(), argv, envp);
      error = errno;
    }
    (void)!::write(status.write_end(), &error, sizeof error);
    ::_exit(127);
  }
  status.close_write();
  int error = 0;
  ssize_t n;
  do {
    n = ::read(status.read_end(), &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof error)) {  // the child never reached the program
    (void)::waitpid(pid, nullptr, 0);
    throw cannot_start(error);
  }
  return pid;
}

// Stops a child that is still running: SIGTERM, then SIGKILL after the grace period.
void stop_child(pid_t pid) {
  (void)::kill(pid, SIGTERM);
  const auto t0 = std::chrono::steady_clock::now();
  while (::waitpid(pid, nullptr, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() - t0 > kKillGrace) {
      (void)::kill(pid, SIGKILL);
      (void)::waitpid(pid, nullptr, 0);
      return;
    }
    ::usleep(10'000);
  }
}

void set_nonblocking(int fd) { (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Reads what is available; false at end of file.
bool drain(int fd, std::string* sink) {
  std::array<char, 8192> buf;
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n > 0) {
      sink->append(buf.data(), static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

}  // namespace

std::string ProcessResult::status_text() const {
  if (timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %.1f s", wall_seconds);
    return buf;
  }
  if (signal != 0) {
    return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  }
  return "exit status " + std::to_string(exit_code);
}

std::string ProcessResult::stderr_text() const {
  std::string out;
  for (const auto& line : stderr_tail) out += "  " + line + "\n";
  return out;
}

std::string command_line_text(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    if (!a.empty() && a.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) {
    throw ToolError("cannot start a child process: the argument vector is empty");
  }
  Pipe err_pipe;
  std::optional<Pipe> out_pipe;
  if (spec.capture_stdout) out_pipe.emplace();
  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = merged_environment(spec.environment);
  std::vector<char*> c_args = c_strings(args);
  std::vector<char*> c_env = c_strings(env);

  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = spawn(spec.argv.front(), c_args.data(), c_env.data(), err_pipe.write_end(),
                          out_pipe ? out_pipe->write_end() : -1);
  err_pipe.close_write();
  if (out_pipe) out_pipe->close_write();
  set_nonblocking(err_pipe.read_end());
  if (out_pipe) set_nonblocking(out_pipe->read_end());

  ProcessResult result;
  LineTail tail(spec.stderr_tail_lines);
  bool err_open = true;
  bool out_open = out_pipe.has_value();
  bool exited = false;
  int status = 0;
  std::optional<std::chrono::steady_clock::time_point> term_sent;
  auto forward_stderr = [&](std::string& chunk) {
    if (chunk.empty()) return;
    tail.append(chunk);
    if (spec.echo_stderr) {
      (void)!::write(STDERR_FILENO, chunk.data(), chunk.size());
    }
    chunk.clear();
  };

  std::string chunk;
  while (!exited) {
    std::array<pollfd, 2> fds{};
    nfds_t n = 0;
    if (err_open) fds[n++] = pollfd{err_pipe.read_end(), POLLIN, 0};
    if (out_open) fds[n++] = pollfd{out_pipe->read_end(), POLLIN, 0};
    // Short slices so that the exit of the child is noticed even when a grandchild keeps the
    // pipes open (ncu's target inherits them).
    (void)poll(fds.data(), n, 100);
    if (err_open) {
      err_open = drain(err_pipe.read_end(), &chunk);
      forward_stderr(chunk);
    }
    if (out_open) out_open = drain(out_pipe->read_end(), &result.stdout_text);

    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      exited = true;
      break;
    }
    if (w < 0 && errno != EINTR) break;  // not our child any more (SIGCHLD ignored): no status
    try {
      check_interrupt();  // a Ctrl-C of the caller's (kscope::set_interrupt_check)
    } catch (...) {
      stop_child(pid);
      throw;
    }
    const auto now = std::chrono::steady_clock::now();
    if (spec.timeout && !term_sent && now - t0 > *spec.timeout) {
      result.timed_out = true;
      (void)kill(pid, SIGTERM);
      term_sent = now;
    } else if (term_sent && now - *term_sent > kKillGrace) {
      (void)kill(pid, SIGKILL);
    }
  }
  // What the child wrote just before exiting.
  if (err_open) (void)drain(err_pipe.read_end(), &chunk);
  forward_stderr(chunk);
  if (out_open) (void)drain(out_pipe->read_end(), &result.stdout_text);

  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.stderr_tail = tail.lines();
  return result;
}

}  // namespace kscope::subprocess
