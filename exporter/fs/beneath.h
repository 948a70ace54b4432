#pragma once

// fs::OpenBeneath: the one way the exporter opens a path under a root (a --path.* root, a
// replay's capture directory or one of its trees). The path, and every symlink met on the
// way, must stay beneath the root: a capture is a bug-report attachment, and a link such as
// `fw_ver -> /proc/self/environ` must never make the exporter serve the host's files.
//
// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS where the kernel has it (Linux 5.6);
// where it answers ENOSYS, a walk of our own: one component at a time with O_NOFOLLOW, the
// tree's own symlinks read and resolved by us, never by the kernel. Both refuse the same
// links: an absolute target, a ".." that climbs above the root, a /proc magic link. Relative
// links that stay inside (sysfs' class/net/X -> ../../devices/...) work as before.

#include <cerrno>
#include <cstddef>
#include <string>
#include <string_view>

#include "rocewatch/result.h"

namespace rocewatch::fs {

// Opens `rel` ("" or "." is the root itself; it must not start with '/') beneath the
// directory `root_fd` with open(2) `flags` (O_CLOEXEC is added; O_NOFOLLOW applies to the last
// component, which then may be a symlink opened with O_PATH). Returns a descriptor, or -1 and
// errno: EXDEV when the path or a link on it leaves the root, ELOOP for a magic link or more
// than 40 links, else what open(2) answers.
int OpenBeneath(int root_fd, std::string_view rel, int flags);

// The walk alone (what OpenBeneath falls back to). It also gives the canonical path of `rel`
// relative to the root, every link resolved (`canonical` may be null): Tree::Resolve.
int WalkBeneath(int root_fd, std::string_view rel, int flags, std::string* canonical);

// True for the errno values of a path refused: EXDEV and ELOOP from OpenBeneath (it leads out
// of its root), EPERM from Tree::Open and ReadFileBeneath for a capture's file that is not a
// plain file (a FIFO or a device node is never opened for reading).
inline bool IsRefusedPath(int err) { return err == EXDEV || err == ELOOP || err == EPERM; }

// Reads the regular file `rel` beneath the directory `root` (the capture directory's
// capture.json, motion.json and kernel answers), at most `max_bytes`. Errors name root/rel and
// carry errno in Error::code (EXDEV: it leaves the root; EPERM: not a regular file).
Result<std::string> ReadFileBeneath(const std::string& root, std::string_view rel,
                                    std::size_t max_bytes);
// Whether `rel` beneath `root` is a directory (following in-tree links only): 0, or the errno
// (ENOTDIR when it is something else).
int CheckDirectoryBeneath(const std::string& root, std::string_view rel);

// Test seam: force the walk even where openat2 exists, so that both stay tested; false goes
// back to choosing by what the kernel has.
void ForceBeneathWalkForTesting(bool on);
// True when OpenBeneath uses openat2 now (not forced off, and the kernel has it).
bool BeneathUsesOpenat2();

}  // namespace rocewatch::fs
