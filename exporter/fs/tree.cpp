#include "fs/tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "fs/errno_record.h"

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

std::string Tree::Abs(std::string_view rel) const { return Join(root_, rel); }

Error Tree::MakeError(std::string_view rel, int err, std::string_view what) const {
  std::string msg = name_ + " " + Abs(rel) + ": ";
  if (!what.empty()) {
    msg += what;
    if (err != 0) msg += ": ";
  }
  if (err != 0) msg += std::strerror(err);
  return Error{msg, err};
}

Result<std::vector<std::string>> Tree::List(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnList(name_, rel);
  std::string path = Abs(rel);
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return MakeError(rel, errno == ENOENT ? RecordedErrno(path) : errno);
  std::vector<std::string> names;
  while (dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::string> Tree::ReadLink(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnLink(name_, rel);
  std::string path = Abs(rel);
  char buf[4096];
  ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
  if (n < 0) return MakeError(rel, errno);
  return std::string(buf, static_cast<std::size_t>(n));
}

Result<std::string> Tree::Resolve(std::string_view rel) const {
  if (recorder_ != nullptr) recorder_->OnLink(name_, rel);
  // Walk component by component so that links are resolved against the tree's
  // root, never the host's: a fixture's absolute link would escape otherwise.
  std::string done;  // canonical prefix, relative to root
  std::string todo(rel);
  int hops = 0;
  while (!todo.empty()) {
    auto slash = todo.find('/');
    std::string part = todo.substr(0, slash);
    todo = slash == std::string::npos ? std::string() : todo.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (done.empty()) return MakeError(rel, 0, "path climbs above the root");
      done = std::string(DirName(done));
      continue;
    }
    std::string candidate = Join(done, part);
    struct stat st;
    if (::lstat(Abs(candidate).c_str(), &st) != 0) return MakeError(candidate, errno);
    if (!S_ISLNK(st.st_mode)) {
      done = std::move(candidate);
      continue;
    }
    if (++hops > 40) return MakeError(rel, ELOOP);
    auto target = ReadLink(candidate);
    if (!target) return target.error();
    std::string t = *target;
    if (!t.empty() && t.front() == '/') {
      // An absolute link inside a captured tree points at the kernel's mount
      // point; only links within the root make sense.
      if (t.rfind(root_ + "/", 0) == 0) {
        t = t.substr(root_.size() + 1);
        done.clear();
      } else {
        return MakeError(candidate, 0, "symlink to " + t + " leaves the tree");
      }
    }
    todo = todo.empty() ? t : t + "/" + todo;
  }
  return done;
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
  struct stat st;
  return ::stat(Abs(rel).c_str(), &st) == 0;
}

bool Tree::IsDirectory(std::string_view rel) const {
  struct stat st;
  return ::stat(Abs(rel).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

int Tree::RecordedErrno(const std::string& path) const {
  if (kernel_fs_) return ENOENT;
  int efd = ::open((path + ".errno").c_str(), O_RDONLY | O_CLOEXEC);
  if (efd < 0) return ENOENT;
  char buf[64];
  ssize_t n = ::read(efd, buf, sizeof buf);
  ::close(efd);
  return ParseErrnoRecord(std::string_view(buf, n > 0 ? static_cast<std::size_t>(n) : 0));
}

int Tree::Open(std::string_view rel) const {
  std::string path = Abs(rel);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd >= 0 || errno != ENOENT || kernel_fs_) return fd;
  errno = RecordedErrno(path);  // replay of a read that failed on the captured node
  return -1;
}

}  // namespace rocewatch::fs
