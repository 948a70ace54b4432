#include "exporter/capture/replay/replay.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "exporter/capture/files/capture_metadata.h"
#include "exporter/capture/replay/motion.h"
#include "exporter/capture/replay/replay_kernel.h"
#include "exporter/fs/beneath.h"
#include "rocewatch/escape.h"

namespace rocewatch::replay {
namespace {

Status CheckDirectory(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return Error{"--replay=" + path + ": " + std::strerror(errno)};
  if (!S_ISDIR(st.st_mode)) return Error{"--replay=" + path + ": not a directory"};
  return {};
}

Result<ReplayedNode> Open(const std::string& replay) {
  ReplayedNode node;
  Status ok = CheckDirectory(replay);
  if (!ok.ok()) return ok.error();
  node.sysfs_root = replay + "/sys";
  node.configfs_root = replay + "/configfs";
  node.debugfs_root = replay + "/debugfs";
  node.procfs_root = replay + "/proc";  // absent in captures without --collector.rdma.per-process
  struct stat st;
  if (::stat(node.sysfs_root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return Error{"--replay=" + replay + ": not a capture directory (no sys/ inside)"};
  // The trees are served beneath the capture directory: sys/ (or configfs/, debugfs/) as a
  // symlink to the host's /sys would serve this node instead of the capture.
  for (const char* tree : {"sys", "configfs", "debugfs", "proc"}) {
    int err = fs::CheckDirectoryBeneath(replay, tree);
    if (fs::IsRefusedPath(err))
      return Error{"--replay=" + replay + ": " + tree +
                   " leaves the capture directory (a symlink "
                   "to outside it); a capture is served only from inside itself"};
  }
  auto meta = LoadCaptureMetadata(replay);
  if (!meta) return Error{"--replay=" + replay + ": " + meta.error().message};
  node.summary = *meta ? (*meta)->Summary() : "a tree without capture.json";
  fs::Tree sysfs("sysfs", node.sysfs_root);
  auto loaded = Motion::Load(replay, sysfs);
  if (!loaded) return Error{"--replay=" + replay + ": " + loaded.error().message};
  std::shared_ptr<const Motion> motion;
  if (!(*loaded)->empty()) {
    motion = *loaded;
    node.sysfs_transform = [motion, apply = motion->SysfsTransform()](
                               std::string_view rel, std::string& text) { apply(rel, text); };
  }
  node.kernel = kernel::MakeReplayKernel(replay, std::move(motion));
  return node;
}

}  // namespace

Result<ReplayedNode> OpenReplay(const std::string& replay) {
  auto node = Open(replay);
  // Why a capture is refused names its keys and paths, which the capture wrote: the message
  // reaches the terminal and the log as TerminalText, whatever the reader below put in it.
  if (!node) return Error{escape::TerminalText(node.error().message), node.error().code};
  return node;
}

}  // namespace rocewatch::replay
