#pragma once

// fs::Tree: one rooted directory tree (the host's /sys, /sys/kernel/config,
// /sys/kernel/debug, or the same subtrees inside a fixture or a capture).
// Every path the exporter reads is relative to a Tree's root, so a fixture or a
// capture replays exactly what a real node had (docs/design.md#every-path-has-a-root).
// Every path is opened beneath that root (fs/beneath.h): a symlink that leaves it, a
// /proc magic link, or (outside a kernel file system) a file that is not a regular file or
// a directory is refused, logged once per path and counted (refused_paths()); its value is
// never read.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>

#include "rocewatch/result.h"

namespace rocewatch::fs {

// Observes every path a Tree reads, lists or resolves; the capture command uses
// it to copy exactly what the exporter read. Called from every source's thread:
// implementations must be thread-safe.
class Recorder {
 public:
  virtual ~Recorder() = default;
  virtual void OnRead(std::string_view tree, std::string_view rel) = 0;
  virtual void OnList(std::string_view tree, std::string_view rel) = 0;
  // A path whose symlinks were resolved or read (Resolve, ReadLink).
  virtual void OnLink(std::string_view tree, std::string_view rel) = 0;
};

// Rewrites an attribute's text after it was read (replay "motion": counters that
// move, see docs/capture.md). Must be thread-safe.
using ValueTransform = std::function<void(std::string_view rel, std::string& text)>;

class Tree {
 public:
  // `name` labels the tree in errors ("sysfs", "configfs", "debugfs"); `root` is
  // the directory that stands for the kernel's mount point.
  Tree(std::string name, std::string root);

  const std::string& name() const { return name_; }
  const std::string& root() const { return root_; }

  // Absolute path of `rel` (which must not start with '/').
  std::string Abs(std::string_view rel) const;

  // Entry names of a directory, sorted, without "." and "..". In a replay tree a
  // missing directory with a `<rel>.errno` sibling fails with the errno recorded
  // there, as Open does (debugfs that only root may list: 13 EACCES).
  Result<std::vector<std::string>> List(std::string_view rel) const;
  // A directory opened beneath the root to be listed again and again (fs/directory.h); -1 and
  // errno on failure.
  int OpenDirectory(std::string_view rel) const;
  // The entries of the directory open at `fd` (read from its start), as List returns them.
  Result<std::vector<std::string>> ListOpen(int fd, std::string_view rel) const;
  // Resolves symlinks in `rel` and returns the canonical path relative to the
  // root; an error (EXDEV) if it or a link on it leaves the root, ELOOP for a loop.
  Result<std::string> Resolve(std::string_view rel) const;
  // The target of the symlink at `rel`, as stored (usually relative).
  Result<std::string> ReadLink(std::string_view rel) const;
  // Reads a whole small file (open, read, close), trailing newline kept.
  Result<std::string> ReadText(std::string_view rel) const;
  bool Exists(std::string_view rel) const;
  bool IsDirectory(std::string_view rel) const;
  // lstat(2) of `rel` beneath the root (the last component not followed): 0 or the errno.
  int LinkStat(std::string_view rel, struct stat& st) const;

  // Opens `rel` read-only for repeated pread; -1 and errno on failure. In a
  // replay tree, a missing file with a `<rel>.errno` sibling fails with the
  // errno recorded there (a capture keeps the reads that failed on the node).
  int Open(std::string_view rel) const;

  // True when the root is a kernel pseudo file system (sysfs, configfs,
  // debugfs), false for a fixture or capture on a disk. Removed kernel
  // attributes fail reads with ENODEV; removed files of a replay tree keep their
  // content behind an open descriptor, so Attribute checks their link count.
  bool kernel_fs() const { return kernel_fs_; }

  void set_recorder(Recorder* recorder) { recorder_ = recorder; }
  Recorder* recorder() const { return recorder_; }
  void set_transform(ValueTransform transform) { transform_ = std::move(transform); }
  const ValueTransform& transform() const { return transform_; }

  // Error text for a failed operation on `rel`: "sysfs /sys/class/net/x/mtu: No such file or directory".
  Error MakeError(std::string_view rel, int err, std::string_view what = {}) const;

  // For a path `rel` that does not exist: the errno its `.errno` sibling
  // records in a replay tree, else ENOENT.
  int RecordedErrno(std::string_view rel) const;

  // Paths refused since start because they lead out of the root or are not plain files.
  std::uint64_t refused_paths() const { return state_->refused.load(std::memory_order_relaxed); }

 private:
  // Shared by copies of a Tree: the root's descriptor, opened on first use (a root that is
  // not there yet, configfs not mounted, is tried again next time), and the refusals.
  struct State {
    ~State();
    std::atomic<int> root_fd{-1};
    std::mutex mu;
    std::set<std::string> logged;
    std::atomic<std::uint64_t> refused{0};
  };
  int RootFd() const;
  // OpenBeneath on this tree; refusals are counted and logged once.
  int OpenRel(std::string_view rel, int flags) const;
  void NoteRefused(std::string_view rel, int err) const;

  std::shared_ptr<State> state_ = std::make_shared<State>();

  std::string name_;
  std::string root_;
  bool kernel_fs_ = false;
  Recorder* recorder_ = nullptr;
  ValueTransform transform_;
};

// Joins path components with '/', skipping empty ones.
std::string Join(std::string_view a, std::string_view b);
std::string Join(std::string_view a, std::string_view b, std::string_view c);
// Last component of a path ("devices/.../net/ens1f0np0" → "ens1f0np0").
std::string_view BaseName(std::string_view path);
// Everything before the last '/' ("" when there is none).
std::string_view DirName(std::string_view path);
// Lexically normalizes "a/b/../c/./d" → "a/c/d"; an error when ".." climbs above the start.
Result<std::string> Normalize(std::string_view path);

}  // namespace rocewatch::fs
