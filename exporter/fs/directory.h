#pragma once

// fs::Directory: a directory held open and listed again on every pass (rewound and read with
// getdents64), instead of walked to beneath the root, opened and closed each time: the class
// directories the collector lists on every scrape to notice hot-plug. A held directory that
// lists nothing or fails is let go and opened again by its path on the next List, so a class
// directory removed and made again (a driver module unloaded and loaded) is not read dead.
// Its descriptor is not one of the attributes' budget (fs/fd_budget.h): the collector holds
// two. Not thread-safe.

#include <string>
#include <vector>

#include "exporter/fs/tree.h"
#include "rocewatch/result.h"

namespace rocewatch::fs {

class Directory {
 public:
  Directory(const Tree* tree, std::string rel);
  ~Directory();
  Directory(Directory&& other) noexcept;
  Directory& operator=(Directory&& other) = delete;
  Directory(const Directory&) = delete;
  Directory& operator=(const Directory&) = delete;

  // The entries, as Tree::List returns them.
  Result<std::vector<std::string>> List();

  bool held() const { return fd_ >= 0; }

 private:
  void Close();

  const Tree* tree_;
  std::string rel_;
  int fd_ = -1;
};

}  // namespace rocewatch::fs
