#include "exporter/fs/attribute.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "exporter/fs/fd_budget.h"

namespace rocewatch::fs {

bool IsGone(int err) { return err == ENODEV || err == ENOENT || err == ENXIO; }

Attribute::Attribute(const Tree* tree, std::string rel) : tree_(tree), rel_(std::move(rel)) {}

Attribute::~Attribute() { Close(); }

Attribute::Attribute(Attribute&& other) noexcept
    : tree_(other.tree_),
      rel_(std::move(other.rel_)),
      fd_(std::exchange(other.fd_, -1)),
      tried_open_(other.tried_open_),
      sentinel_(other.sentinel_),
      ever_read_(other.ever_read_),
      absent_(std::move(other.absent_)) {}

Attribute& Attribute::operator=(Attribute&& other) noexcept {
  if (this != &other) {
    Close();
    tree_ = other.tree_;
    rel_ = std::move(other.rel_);
    fd_ = std::exchange(other.fd_, -1);
    tried_open_ = other.tried_open_;
    sentinel_ = other.sentinel_;
    ever_read_ = other.ever_read_;
    absent_ = std::move(other.absent_);
  }
  return *this;
}

void Attribute::Close() {
  if (fd_ >= 0) {
    ::close(fd_);
    FdBudget::Release();
    fd_ = -1;
  }
}

Status Attribute::Read(std::string& out) {
  out.clear();
  if (tree_->recorder() != nullptr) tree_->recorder()->OnRead(tree_->name(), rel_);
  if (absent_) return *absent_;
  if (fd_ < 0 && !tried_open_) {
    tried_open_ = true;
    if (FdBudget::TryAcquire()) {
      fd_ = tree_->Open(rel_);
      if (fd_ < 0) {
        int err = errno;
        FdBudget::Release();
        tried_open_ = false;  // a file that was there may come back: try again next time
        return OpenFailed(err);
      }
    }
  }
  int fd = fd_;
  bool transient = false;
  if (fd < 0) {
    fd = tree_->Open(rel_);
    if (fd < 0) return OpenFailed(errno);
    transient = true;
  }
  if (!transient && sentinel_ && !tree_->kernel_fs()) {
    // A replay tree's file that was deleted stays readable through our
    // descriptor; report it gone, as sysfs would with ENODEV.
    struct stat st;
    if (::fstat(fd, &st) == 0 && st.st_nlink == 0) {
      Close();
      tried_open_ = false;
      return tree_->MakeError(rel_, ENOENT);
    }
  }
  char buf[4096];
  ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  int err = errno;
  if (transient) ::close(fd);
  if (n < 0) {
    if (IsGone(err)) Close(), tried_open_ = false;
    return tree_->MakeError(rel_, err);
  }
  ever_read_ = true;
  out.assign(buf, static_cast<std::size_t>(n));
  if (tree_->transform()) tree_->transform()(rel_, out);
  return {};
}

Error Attribute::OpenFailed(int err) {
  Error error = tree_->MakeError(rel_, err);
  if (err == ENOENT && !ever_read_) absent_ = error;
  return error;
}

}  // namespace rocewatch::fs
