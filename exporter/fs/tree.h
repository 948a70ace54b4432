#pragma once

// fs::Tree: one rooted directory tree (the host's /sys, /sys/kernel/config,
// /sys/kernel/debug, or the same subtrees inside a fixture or a capture).
// Every path the exporter reads is relative to a Tree's root, so a fixture or a
// capture replays exactly what a real node had (DESIGN.md "Every path has a root").

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
  // Resolves symlinks in `rel` and returns the canonical path relative to the
  // root; an error if it leaves the root (a fixture must be self-contained).
  Result<std::string> Resolve(std::string_view rel) const;
  // The target of the symlink at `rel`, as stored (usually relative).
  Result<std::string> ReadLink(std::string_view rel) const;
  // Reads a whole small file (open, read, close), trailing newline kept.
  Result<std::string> ReadText(std::string_view rel) const;
  bool Exists(std::string_view rel) const;
  bool IsDirectory(std::string_view rel) const;

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

  // For an absolute path that does not exist: the errno its `.errno` sibling
  // records in a replay tree, else ENOENT.
  int RecordedErrno(const std::string& path) const;

 private:

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
