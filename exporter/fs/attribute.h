#pragma once

// fs::Attribute: one dynamic sysfs attribute, opened once and re-read with
// pread(fd, buf, n, 0), which makes sysfs run the attribute's show() again and
// returns a fresh value each time. Falls back to open/read/close when the
// descriptor budget is spent. Not thread-safe: one collecting thread owns it.

#include <optional>
#include <string>
#include <string_view>

#include "exporter/fs/tree.h"

namespace rocewatch::fs {

class Attribute {
 public:
  Attribute() = default;
  Attribute(const Tree* tree, std::string rel);
  ~Attribute();
  Attribute(Attribute&& other) noexcept;
  Attribute& operator=(Attribute&& other) noexcept;
  Attribute(const Attribute&) = delete;
  Attribute& operator=(const Attribute&) = delete;

  // Reads the current value into `out` (trailing newline kept). On failure
  // returns an Error whose code is the errno: ENODEV or ENOENT mean the
  // attribute (and usually its device) is gone.
  //
  // A file that was absent (ENOENT) at its first open and never read is remembered absent:
  // later reads answer the same error without a system call (docs/performance.md "What is
  // absent costs nothing"). Sources rebuild their attributes when the inventory changes (a
  // device or port appearing, a driver reload), which is when an absent file is looked for
  // again.
  Status Read(std::string& out);
  // The open failed with ENOENT before the file was ever read: Read answers without looking.
  bool absent() const { return absent_.has_value(); }

  const std::string& rel() const { return rel_; }
  const Tree* tree() const { return tree_; }
  bool held() const { return fd_ >= 0; }

  // In a replay tree (not sysfs), a held file that was deleted still reads; a
  // sentinel attribute checks its link count on every read to notice. One
  // sentinel per device (its first attribute) is enough: a device's files go
  // together, and the others skip the extra fstat.
  void set_vanish_sentinel(bool on) { sentinel_ = on; }

 private:
  void Close();
  // The error of a failed open; remembers an absent file (see Read).
  Error OpenFailed(int err);

  const Tree* tree_ = nullptr;
  std::string rel_;
  int fd_ = -1;
  bool tried_open_ = false;
  bool sentinel_ = false;
  bool ever_read_ = false;
  std::optional<Error> absent_;
};

// True for the errno values that mean "this device or attribute went away".
bool IsGone(int err);

}  // namespace rocewatch::fs
