#pragma once

// An sshd on loopback for the tests that reach nodes over SSH for real (`roce-lint apply`,
// `roce-lint verify`): its own host key, user key and authorized_keys in a test directory.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "fix_test_util.h"

namespace rocewatch::fix_testing {

// An sshd on 127.0.0.1 that accepts one key for root, for as long as the object lives.
class LoopbackSshd {
 public:
  static std::string SkipReason() {
    for (const char* tool : {"/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen"})
      if (::access(tool, X_OK) != 0) return std::string(tool) + " is not installed";
    return "";
  }
  explicit LoopbackSshd(const fs::path& dir) : dir_(dir) {
    // sshd refuses to start without its privilege separation directory.
    std::error_code ec;
    if (!fs::exists("/run/sshd")) fs::create_directories("/run/sshd", ec);
    for (const char* key : {"host_key", "user_key"}) {
      RunResult r = Sh("ssh-keygen -q -t ed25519 -N '' -f " + std::string(key), dir_);
      EXPECT_EQ(r.code, 0) << r.err;
    }
    fs::copy_file(dir_ / "user_key.pub", dir_ / "authorized_keys");
    // A port free on 127.0.0.1 may be taken on 127.0.0.3 by another test's socket, and sshd
    // then listens on some of its addresses only: start again on another port until it
    // answers on all three.
    for (int attempt = 0; attempt < 8 && !AcceptsOnAll(); ++attempt) {
      Stop();
      port_ = FreePort();
      Start();
      // sshd binds every address before it listens on any: once one answers, the rest
      // answer now or never.
      for (int i = 0; i < 100 && !AcceptsOn(kAddresses[0]) && Running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  ~LoopbackSshd() { Stop(); }
  // Whether sshd answers on each of its addresses.
  bool Accepts() const { return AcceptsOnAll(); }
  int port() const { return port_; }
  std::string SshCommand() const {
    return "ssh -F /dev/null -p " + std::to_string(port_) + " -i " + (dir_ / "user_key").string() +
           " -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o "
           "LogLevel=ERROR"
           " -o ConnectTimeout=5 -l root {host}";
  }
  std::string Log() const { return Slurp(dir_ / "sshd.log"); }

 private:
  static constexpr const char* kAddresses[] = {"127.0.0.1", "127.0.0.3", "127.0.0.4"};

  void Start() {
    std::string listen;
    for (const char* address : kAddresses) listen += "ListenAddress " + std::string(address) + "\n";
    WriteText(dir_ / "sshd_config",
              "Port " + std::to_string(port_) + "\n" + listen + "HostKey " +
                  (dir_ / "host_key").string() + "\nPidFile " + (dir_ / "sshd.pid").string() +
                  "\nAuthorizedKeysFile " + (dir_ / "authorized_keys").string() +
                  "\nStrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                  "PermitRootLogin prohibit-password\nUsePAM no\nLogLevel ERROR\n");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      const std::string config = (dir_ / "sshd_config").string(),
                        log = (dir_ / "sshd.log").string();
      ::execl("/usr/sbin/sshd", "/usr/sbin/sshd", "-D", "-e", "-f", config.c_str(), "-E",
              log.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  void Stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
  }
  // False once sshd has exited (reaped here, so that Stop() signals no stranger).
  bool Running() {
    if (pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == pid_) pid_ = -1;
    return pid_ > 0;
  }
  bool AcceptsOnAll() const {
    if (pid_ <= 0) return false;
    for (const char* address : kAddresses)
      if (!AcceptsOn(address)) return false;
    return true;
  }
  bool AcceptsOn(const char* address) const {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port_));
    ::inet_pton(AF_INET, address, &a.sin_addr);
    bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
  }
  static int FreePort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
  }
  fs::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace rocewatch::fix_testing
