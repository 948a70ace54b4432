#include "netns.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace rocewatch::testing {
namespace {

std::string Joined(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

// argv prepared for execv before fork(), so the child only calls async-signal-safe
// functions between fork() and exec.
struct ExecArgs {
  explicit ExecArgs(const std::vector<std::string>& argv) : strings(argv) {
    path = FindProgram(argv.at(0));
    if (path.empty()) path = argv[0];
    for (auto& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
  [[noreturn]] void Exec() {
    ::execv(path.c_str(), pointers.data());
    static const char kMessage[] = "exec failed\n";
    [[maybe_unused]] ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    ::_exit(127);
  }
  std::vector<std::string> strings;
  std::string path;
  std::vector<char*> pointers;
};

}  // namespace

std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  std::string dirs = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  dirs += ":/usr/sbin:/sbin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

CommandResult RunCommand(const std::vector<std::string>& argv) {
  CommandResult result;
  ExecArgs exec(argv);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return result;
  }
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    exec.Exec();
  }
  ::close(pipe_fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = ::read(pipe_fds[0], buf, sizeof buf)) > 0)
    result.output.append(buf, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string KernelTestSkipReason() {
  if (::geteuid() != 0) {
    return "kernel tests need root (network namespaces, veth); run them as root (CI does)";
  }
  if (FindProgram("ip").empty()) return "kernel tests need iproute2's `ip` (not installed)";
  return "";
}

Result<std::unique_ptr<NetNamespace>> NetNamespace::Create(const std::string& name) {
  CommandResult add = RunCommand({"ip", "netns", "add", name});
  if (add.status != 0) return Error{"ip netns add " + name + ": " + add.output};
  std::unique_ptr<NetNamespace> ns(new NetNamespace(name));
  Status lo = ns->Ip({"link", "set", "lo", "up"});
  if (!lo.ok()) return lo.error();
  return ns;
}

NetNamespace::~NetNamespace() { RunCommand({"ip", "netns", "del", name_}); }

Status NetNamespace::Ip(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"ip", "-n", name_};
  argv.insert(argv.end(), args.begin(), args.end());
  CommandResult r = RunCommand(argv);
  if (r.status != 0) return Error{Joined(argv) + ": " + r.output};
  return {};
}

Status NetNamespace::RunInside(const std::function<void()>& fn) const {
  std::string error;
  std::thread t([&] {
    const std::string path = "/run/netns/" + name_;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      error = "open " + path + ": " + std::strerror(errno);
      return;
    }
    if (::setns(fd, CLONE_NEWNET) != 0) {
      error = "setns " + path + ": " + std::strerror(errno);
      ::close(fd);
      return;
    }
    ::close(fd);
    fn();
  });
  t.join();
  if (!error.empty()) return Error{error};
  return {};
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::StartInNamespace(
    const NetNamespace& ns, const std::vector<std::string>& argv) {
  std::vector<std::string> full = {"ip", "netns", "exec", ns.name()};
  full.insert(full.end(), argv.begin(), argv.end());
  ExecArgs exec(full);  // ip execs the program in place: the child keeps this pid
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return Error{std::string("pipe: ") + std::strerror(errno)};
  pid_t pid = ::fork();
  if (pid < 0) return Error{std::string("fork: ") + std::strerror(errno)};
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, STDOUT_FILENO);
    exec.Exec();
  }
  ::close(pipe_fds[1]);
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, pipe_fds[0]));
}

ChildProcess::~ChildProcess() {
  ::kill(pid_, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) {
      ::close(err_fd_);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  ::close(err_fd_);
}

Result<std::string> ChildProcess::WaitForLine(const std::string& needle,
                                              std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    std::size_t nl;
    while ((nl = pending_.find('\n')) != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      log_ += line + "\n";
      if (line.find(needle) != std::string::npos) return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Error{"timed out waiting for '" + needle + "'; log:\n" + log_};
    pollfd pfd{err_fd_, POLLIN, 0};
    int rc = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) continue;
    char buf[4096];
    ssize_t n = ::read(err_fd_, buf, sizeof buf);
    if (n <= 0) return Error{"the process ended before '" + needle + "'; log:\n" + log_ + pending_};
    pending_.append(buf, static_cast<std::size_t>(n));
  }
}

Result<std::string> HttpGet(int port, const std::string& path) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Error{std::string("socket: ") + std::strerror(errno)};
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::string e =
        std::string("connect 127.0.0.1:") + std::to_string(port) + ": " + std::strerror(errno);
    ::close(fd);
    return Error{e};
  }
  const std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    ::close(fd);
    return Error{"send failed"};
  }
  std::string response;
  char buf[65536];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0)
    response.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  const std::size_t body = response.find("\r\n\r\n");
  if (response.rfind("HTTP/1.", 0) != 0 || body == std::string::npos) {
    return Error{"not an HTTP response: " + response.substr(0, 200)};
  }
  if (response.find(" 200 ") > response.find("\r\n")) {
    return Error{"HTTP status: " + response.substr(0, response.find("\r\n"))};
  }
  return response.substr(body + 4);
}

}  // namespace rocewatch::testing
