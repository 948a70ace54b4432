#include "exporter/fs/beneath.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define ROCEWATCH_HAVE_OPENAT2_H 1
#endif

namespace rocewatch::fs {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's MAXSYMLINKS

std::atomic<bool> g_force_walk{false};
std::atomic<bool> g_no_openat2{false};  // the kernel answered ENOSYS once

// Splits `path` at '/', empty components dropped, onto the front of `todo` in order.
void PushFront(std::deque<std::string>& todo, std::string_view path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) parts.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) todo.push_front(std::move(*it));
}

// Directory descriptors of the walk's canonical prefix (the root's is borrowed, not owned).
class DirStack {
 public:
  explicit DirStack(int root_fd) : root_fd_(root_fd) {}
  ~DirStack() {
    for (int fd : fds_) ::close(fd);
  }
  DirStack(const DirStack&) = delete;
  DirStack& operator=(const DirStack&) = delete;
  int top() const { return fds_.empty() ? root_fd_ : fds_.back(); }
  bool at_root() const { return fds_.empty(); }
  void Push(int fd, std::string name) {
    fds_.push_back(fd);
    names_.push_back(std::move(name));
  }
  void Pop() {
    ::close(fds_.back());
    fds_.pop_back();
    names_.pop_back();
  }
  std::string Path(std::string_view last) const {
    std::string out;
    for (const auto& n : names_) {
      if (!out.empty()) out += '/';
      out += n;
    }
    if (!last.empty()) {
      if (!out.empty()) out += '/';
      out += last;
    }
    return out;
  }

 private:
  int root_fd_;
  std::vector<int> fds_;
  std::vector<std::string> names_;
};

int Fail(int err) {
  errno = err;
  return -1;
}

#if defined(SYS_openat2) && defined(ROCEWATCH_HAVE_OPENAT2_H)
// openat2 beneath `root_fd`; -2 (errno kept) when the kernel lacks it and the walk must answer.
int Openat2(int root_fd, std::string_view rel, int flags) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(static_cast<unsigned>(flags | O_CLOEXEC));
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const std::string path = rel.empty() ? std::string(".") : std::string(rel);
  for (int tries = 0;; ++tries) {
    long fd = ::syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    // EAGAIN: a rename raced the lookup (the kernel asks us to retry).
    if (errno == EAGAIN && tries < 8) continue;
    if (errno == ENOSYS) {
      g_no_openat2.store(true, std::memory_order_relaxed);
      return -2;
    }
    // A seccomp filter that does not know openat2 (older container runtimes) answers EPERM.
    if (errno == EPERM) return -2;
    return -1;
  }
}
#else
int Openat2(int, std::string_view, int) {
  g_no_openat2.store(true, std::memory_order_relaxed);
  return -2;
}
#endif

}  // namespace

int WalkBeneath(int root_fd, std::string_view rel, int flags, std::string* canonical) {
  if (!rel.empty() && rel.front() == '/') return Fail(EXDEV);
  const bool nofollow_last = (flags & O_NOFOLLOW) != 0;
  flags &= ~O_NOFOLLOW;
  std::deque<std::string> todo;
  PushFront(todo, rel);
  DirStack dirs(root_fd);
  int links = 0;
  while (!todo.empty()) {
    std::string part = std::move(todo.front());
    todo.pop_front();
    if (part == ".") continue;
    if (part == "..") {
      if (dirs.at_root()) return Fail(EXDEV);  // climbs above the root
      dirs.Pop();
      continue;
    }
    const bool last = todo.empty();
    struct stat st;
    if (::fstatat(dirs.top(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    if (S_ISLNK(st.st_mode) && !(last && nofollow_last)) {
      if (++links > kMaxLinks) return Fail(ELOOP);
      char buf[4096];
      ssize_t n = ::readlinkat(dirs.top(), part.c_str(), buf, sizeof buf - 1);
      if (n < 0) return -1;
      if (n == 0) return Fail(ENOENT);
      // An absolute target means the host's file system, never the tree's (RESOLVE_BENEATH
      // refuses it the same way); a magic link's text ("/proc/…", "socket:[…]") is only text.
      if (buf[0] == '/') return Fail(EXDEV);
      PushFront(todo, std::string_view(buf, static_cast<std::size_t>(n)));
      continue;
    }
    if (last) {
      int open_flags = flags | O_NOFOLLOW | O_CLOEXEC;
      if (S_ISLNK(st.st_mode)) open_flags |= O_PATH;  // O_NOFOLLOW asked for the link itself
      int fd = ::openat(dirs.top(), part.c_str(), open_flags);
      if (fd < 0) return -1;
      if (canonical != nullptr) *canonical = dirs.Path(part);
      return fd;
    }
    if (!S_ISDIR(st.st_mode)) return Fail(ENOTDIR);
    int fd = ::openat(dirs.top(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    dirs.Push(fd, std::move(part));
  }
  // Nothing left to open by name ("", ".", "a/.."): the directory the walk stands in.
  int fd = ::openat(dirs.top(), ".", flags | O_CLOEXEC);
  if (fd >= 0 && canonical != nullptr) *canonical = dirs.Path({});
  return fd;
}

int OpenBeneath(int root_fd, std::string_view rel, int flags) {
  if (!rel.empty() && rel.front() == '/') return Fail(EXDEV);
  if (!g_force_walk.load(std::memory_order_relaxed) &&
      !g_no_openat2.load(std::memory_order_relaxed)) {
    int fd = Openat2(root_fd, rel, flags);
    if (fd != -2) return fd;
  }
  return WalkBeneath(root_fd, rel, flags, nullptr);
}

Result<std::string> ReadFileBeneath(const std::string& root, std::string_view rel,
                                    std::size_t max_bytes) {
  const std::string where = root + "/" + std::string(rel);
  auto fail = [&](int err) {
    std::string why = err == EXDEV ? std::string("the path or a symlink on it leaves ") + root
                      : err == EPERM ? std::string("not a regular file")
                                     : std::string(std::strerror(err));
    return Error{"cannot read " + where + ": " + why, err};
  };
  int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return fail(errno);
  // Looked at before it is opened for reading: a FIFO or a device node in a capture is never
  // opened (a FIFO would block, a device would be read).
  int path_fd = OpenBeneath(root_fd, rel, O_PATH);
  if (path_fd < 0) {
    int err = errno;
    ::close(root_fd);
    return fail(err);
  }
  struct stat st;
  bool regular = ::fstat(path_fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(path_fd);
  if (!regular) {
    ::close(root_fd);
    return fail(EPERM);
  }
  int fd = OpenBeneath(root_fd, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  int err = errno;
  ::close(root_fd);
  if (fd < 0) return fail(err);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(EPERM);
  }
  std::string data;
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      ::close(fd);
      return fail(err);
    }
    if (n == 0) break;
    if (data.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      return Error{where + " is larger than the limit of " + std::to_string(max_bytes) + " bytes",
                   EFBIG};
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return data;
}

int CheckDirectoryBeneath(const std::string& root, std::string_view rel) {
  int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) return errno;
  int fd = OpenBeneath(root_fd, rel, O_PATH | O_DIRECTORY);
  int err = fd < 0 ? errno : 0;
  if (fd >= 0) ::close(fd);
  ::close(root_fd);
  return err;
}

void ForceBeneathWalkForTesting(bool on) { g_force_walk.store(on, std::memory_order_relaxed); }

bool BeneathUsesOpenat2() {
  return !g_force_walk.load(std::memory_order_relaxed) &&
         !g_no_openat2.load(std::memory_order_relaxed);
}

}  // namespace rocewatch::fs
