#pragma once

// Test support for the kernel tests: a network namespace the test owns (created with
// `ip netns add`, deleted when the object goes, whatever the test did), commands run in
// it, code run on a thread that entered it (setns), and a child process started inside it.

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::testing {

struct CommandResult {
  int status = -1;     // exit status, or -1 when it could not run
  std::string output;  // stdout and stderr together
};

// Runs argv[0] (searched in PATH, /usr/sbin and /sbin) and waits for it.
CommandResult RunCommand(const std::vector<std::string>& argv);
// The full path of a program, or "" when it is not installed.
std::string FindProgram(const std::string& name);

// Why the kernel tests cannot run here ("" when they can): not root, no `ip`.
std::string KernelTestSkipReason();

class NetNamespace {
 public:
  // `ip netns add <name>`, then `ip -n <name> link set lo up`.
  static Result<std::unique_ptr<NetNamespace>> Create(const std::string& name);
  ~NetNamespace();  // `ip netns del`
  NetNamespace(const NetNamespace&) = delete;
  NetNamespace& operator=(const NetNamespace&) = delete;

  const std::string& name() const { return name_; }
  // `ip -n <name> <args…>`; an Error with ip's output when it fails.
  Status Ip(const std::vector<std::string>& args) const;
  // Runs `fn` on a new thread that entered this namespace (setns CLONE_NEWNET) and waits for
  // it. Sockets `fn` creates belong to the namespace. An Error when setns failed.
  Status RunInside(const std::function<void()>& fn) const;

 private:
  explicit NetNamespace(std::string name) : name_(std::move(name)) {}
  std::string name_;
};

// A child process started with `ip netns exec <ns> argv…`, stderr read line by line,
// terminated (SIGTERM, then SIGKILL) when the object goes.
class ChildProcess {
 public:
  static Result<std::unique_ptr<ChildProcess>> StartInNamespace(
      const NetNamespace& ns, const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads stderr until a line contains `needle`; returns that line, or an Error (with what
  // was read) on timeout or end of output.
  Result<std::string> WaitForLine(const std::string& needle, std::chrono::milliseconds timeout);
  const std::string& log() const { return log_; }

 private:
  ChildProcess(pid_t pid, int err_fd) : pid_(pid), err_fd_(err_fd) {}
  pid_t pid_;
  int err_fd_;
  std::string log_;
  std::string pending_;
};

// GET http://127.0.0.1:<port><path> with a plain socket (call it inside the namespace);
// the response body, or an Error.
Result<std::string> HttpGet(int port, const std::string& path);

}  // namespace rocewatch::testing
