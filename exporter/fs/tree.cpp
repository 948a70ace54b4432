#include "exporter/fs/tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "exporter/fs/beneath.h"
#include "exporter/fs/errno_record.h"
#include "exporter/log.h"

namespace rocewatch::fs {

std::string Join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out(a);
  if (out.back() != '/') out += '/';
  out += b;
  return out;
}

std::string Join(std::string_view a, std::string_view b, std::string_view c) {
  return Join(Join(a, b), c);
}

std::string_view BaseName(std::string_view path) {
  auto pos = path.rfind('/');
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

std::string_view DirName(std::string_view path) {
  auto pos = path.rfind('/');
  return pos == std::string_view::npos ? std::string_view() : path.substr(0, pos);
}

Result<std::string> Normalize(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if (part == "..") {
      if (parts.empty()) return Error{"path " + std::string(path) + " climbs above its root"};
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

Tree::Tree(std::string name, std::string root) : name_(std::move(name)), root_(std::move(root)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  constexpr unsigned long kSysfsMagic = 0x62656572, kConfigfsMagic = 0x62656570,
                         kDebugfsMagic = 0x64626720, kTracefsMagic = 0x74726163;
  struct statfs st;
  if (::statfs(root_.c_str(), &st) == 0) {
    auto magic = static_cast<unsigned long>(st.f_type);
    kernel_fs_ = magic == kSysfsMagic || magic == kConfigfsMagic || magic == kDebugfsMagic ||
                 magic == kTracefsMagic;
  }
}

Tree::State::~State() {
  int fd = root_fd.load();
  if (fd >= 0) ::close(fd);
}

int Tree::RootFd() const {
  int fd = state_->root_fd.load(std::memory_order_acquire);
  if (fd >= 0) return fd;
  std::lock_guard<std::mutex> lock(state_->mu);
  fd = state_->root_fd.load(std::memory_order_relaxed);
  if (fd >= 0) return fd;
  fd = ::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) state_->root_fd.store(fd, std::memory_order_release);
  return fd;
}

void Tree::NoteRefused(std::string_view rel, int err) const {
  state_->refused.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->logged.size() < 1024 && state_->logged.emplace(rel).second) {
    log::Warn("path refused, not read", {{"tree", name_}, {"path", Abs(rel)},
                                         {"reason", MakeError(rel, err).message}});
  }
}

int Tree::OpenRel(std::string_view rel, int flags) const {
  int root = RootFd();
  if (root < 0) return -1;
  int fd = OpenBeneath(root, rel, flags);
  if (fd < 0 && (errno == EXDEV || errno == ELOOP)) {  // EPERM is Tree::Open's to note
    int err = errno;
    NoteRefused(rel, err);
    errno = err;
  }
  return fd;
}

std::string Tree::Abs(std::string_view rel) const { return Join(root_, rel); }

Error Tree::MakeError(std::string_view rel, int err, std::string_view what) const {
  std::string msg = name_ + " " + Abs(rel) + ": ";
  if (what.empty()) {
    // The refusals of OpenBeneath, said in words (strerror's "Invalid cross-device link"
    // would mislead).
    if (err == EXDEV) what = "refused: the path or a symlink on it leaves the tree";
    if (err == ELOOP) what = "refused: a symlink loop, too many links or a /proc magic link";
    if (err == EPERM && !kernel_fs_) what = "refused: not a regular file or directory";
    if (!what.empty()) return Error{msg + std::string(what), err};
  }
  if (!what.empty()) {
    msg += what;
    if (err != 0) msg += ": ";
  }
  if (err != 0) msg += std::strerror(err);
  return Error{msg, err};
}

Result<std::vector<std::string>> Tree::List(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnList(name_, rel);
  int fd = OpenDirectory(rel);
  if (fd < 0) return MakeError(rel, errno == ENOENT ? RecordedErrno(rel) : errno);
  auto names = ListOpen(fd, rel);
  ::close(fd);
  return names;
}

int Tree::OpenDirectory(std::string_view rel) const { return OpenRel(rel, O_RDONLY | O_DIRECTORY); }

Result<std::vector<std::string>> Tree::ListOpen(int fd, std::string_view rel) const {
  if (::lseek(fd, 0, SEEK_SET) != 0) return MakeError(rel, errno);
  std::vector<std::string> names;
  alignas(8) char buf[16384];
  for (;;) {
    const ssize_t got = ::getdents64(fd, buf, sizeof buf);
    if (got < 0) {
      if (errno == EINTR) continue;
      return MakeError(rel, errno);
    }
    if (got == 0) break;
    for (ssize_t at = 0; at < got;) {
      const auto* e = reinterpret_cast<const dirent64*>(buf + at);
      if (e->d_reclen == 0) break;  // never from a kernel; not a loop forever either
      at += e->d_reclen;
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      names.emplace_back(e->d_name);
    }
  }
  if (!kernel_fs_) {
    // A replay tree keeps a read that failed on the node as `<name>.errno`: the node
    // listed `<name>`, so the listing does too (its read then fails with that errno).
    constexpr std::string_view kSuffix = ".errno";
    for (auto& n : names)
      if (n.size() > kSuffix.size() && n.compare(n.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        n.resize(n.size() - kSuffix.size());
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::string> Tree::ReadLink(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnLink(name_, rel);
  int fd = OpenRel(rel, O_PATH | O_NOFOLLOW);
  if (fd < 0) return MakeError(rel, errno);
  char buf[4096];
  ssize_t n = ::readlinkat(fd, "", buf, sizeof buf - 1);
  int err = errno;
  ::close(fd);
  if (n < 0) return MakeError(rel, err == ENOENT ? EINVAL : err);  // "" on a non-link: ENOENT
  return std::string(buf, static_cast<std::size_t>(n));
}

Result<std::string> Tree::Resolve(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnLink(name_, rel);
  // Our own walk, always: it is the one that also says where the links lead (relative to the
  // root), and it refuses what OpenBeneath refuses.
  int root = RootFd();
  if (root < 0) return MakeError(rel, errno);
  std::string canonical;
  int fd = WalkBeneath(root, rel, O_PATH, &canonical);
  if (fd < 0) {
    int err = errno;
    if (IsRefusedPath(err)) NoteRefused(rel, err);
    return MakeError(rel, err);
  }
  ::close(fd);
  return canonical;
}

int Tree::LinkStat(std::string_view rel, struct stat& st) const {
  int fd = OpenRel(rel, O_PATH | O_NOFOLLOW);
  if (fd < 0) return errno;
  int err = ::fstat(fd, &st) == 0 ? 0 : errno;
  ::close(fd);
  return err;
}

Result<std::string> Tree::ReadText(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnRead(name_, rel);
  int fd = Open(rel);
  if (fd < 0) return MakeError(rel, errno);
  std::string out;
  char buf[4096];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return MakeError(rel, err);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > (1u << 20)) {
      ::close(fd);
      return MakeError(rel, 0, "file larger than 1 MiB");
    }
  }
  ::close(fd);
  if (transform_) transform_(rel, out);
  return out;
}

bool Tree::Exists(std::string_view rel) const {
  int fd = OpenRel(rel, O_PATH);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

bool Tree::IsDirectory(std::string_view rel) const {
  int fd = OpenRel(rel, O_PATH | O_DIRECTORY);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

int Tree::RecordedErrno(std::string_view rel) const {
  if (kernel_fs_) return ENOENT;
  int root = RootFd();
  if (root < 0) return ENOENT;
  int efd = OpenBeneath(root, std::string(rel) + ".errno", O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (efd < 0) return ENOENT;
  struct stat st;
  char buf[64];
  ssize_t n = ::fstat(efd, &st) == 0 && S_ISREG(st.st_mode) ? ::read(efd, buf, sizeof buf) : -1;
  ::close(efd);
  return ParseErrnoRecord(std::string_view(buf, n > 0 ? static_cast<std::size_t>(n) : 0));
}

int Tree::Open(std::string_view rel) const {
  int fd = -1;
  if (kernel_fs_) {
    // sysfs, configfs and debugfs attributes are what they say; opened as before.
    fd = OpenRel(rel, O_RDONLY | O_NOCTTY);
    return fd;
  }
  // A replay tree or fixture on a disk: a FIFO or a device node there is never opened for
  // reading (a FIFO would block the source, a device would be read), so look first.
  int path_fd = OpenRel(rel, O_PATH);
  if (path_fd >= 0) {
    struct stat st;
    bool plain = ::fstat(path_fd, &st) == 0 && S_ISREG(st.st_mode);
    ::close(path_fd);
    if (plain) fd = OpenRel(rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (plain && fd >= 0) {
      if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return fd;  // the same check, raced
      ::close(fd);
    }
    if (plain && fd < 0) return -1;
    NoteRefused(rel, EPERM);
    errno = EPERM;
    return -1;
  }
  if (errno != ENOENT) return -1;
  errno = RecordedErrno(rel);  // replay of a read that failed on the captured node
  return -1;
}

}  // namespace rocewatch::fs
