#include "exporter/fs/directory.h"

#include <unistd.h>

#include <utility>

namespace rocewatch::fs {

Directory::Directory(const Tree* tree, std::string rel) : tree_(tree), rel_(std::move(rel)) {}

Directory::~Directory() { Close(); }

Directory::Directory(Directory&& other) noexcept
    : tree_(other.tree_), rel_(std::move(other.rel_)), fd_(std::exchange(other.fd_, -1)) {}

void Directory::Close() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

Result<std::vector<std::string>> Directory::List() {
  if (fd_ >= 0) {
    if (tree_->recorder() != nullptr) tree_->recorder()->OnList(tree_->name(), rel_);
    auto names = tree_->ListOpen(fd_, rel_);
    if (names && !names->empty()) return names;
    Close();  // emptied, removed or failing: by its path, below and from now on until it lists
  }
  auto names = tree_->List(rel_);
  if (names && !names->empty()) fd_ = tree_->OpenDirectory(rel_);
  return names;
}

}  // namespace rocewatch::fs
