#include "lint/fix/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

extern char** environ;

namespace rocewatch::lint::fix {
namespace {

using Clock = std::chrono::steady_clock;

int ExitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

ProcessResult RunShellCommand(const std::string& command, const std::string& stdin_path,
                              double timeout_seconds, std::size_t max_output) {
  ProcessResult result;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(
      &actions, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group, so the deadline kills ssh and all
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv = {const_cast<char*>("sh"), const_cast<char*>("-c"),
                             const_cast<char*>(command.c_str()), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    result.spawn_error = std::string("cannot start /bin/sh: ") + std::strerror(rc);
    return result;
  }

  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_seconds));
  int status = 0;
  bool reaped = false;
  auto exited_at = Clock::time_point::max();
  char buf[8192];
  for (;;) {
    auto now = Clock::now();
    if (!reaped && ::waitpid(pid, &status, WNOHANG) == pid) {
      reaped = true;
      exited_at = now;
    }
    // After the child exits, something it left behind may hold the pipe open: read on for a
    // moment, then stop.
    if (reaped && now - exited_at > std::chrono::seconds(2)) break;
    if (!reaped && now >= deadline) {
      result.timed_out = true;
      ::kill(-pid, SIGTERM);
      for (int i = 0; i < 20 && ::waitpid(pid, &status, WNOHANG) != pid; ++i) ::usleep(100000);
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      reaped = true;
      break;
    }
    pollfd p{pipe_fds[0], POLLIN, 0};
    int ready = ::poll(&p, 1, 100);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of output
    if (result.output.size() < max_output)
      result.output.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n),
                                                      max_output - result.output.size()));
  }
  ::close(pipe_fds[0]);
  if (!reaped) ::waitpid(pid, &status, 0);
  result.exit_code = ExitCodeOf(status);
  return result;
}

}  // namespace rocewatch::lint::fix
