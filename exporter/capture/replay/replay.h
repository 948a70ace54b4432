#pragma once

// Serving a capture directory instead of this node (--replay DIR): the three
// trees beneath it, the kernel answers from its kernel/ folder, and the
// capture's motion (motion.h) applied to both. Motion is a property of the
// replay only: the collector sees a sysfs value transform and a KernelAnswers.

#include <memory>
#include <string>

#include "exporter/fs/tree.h"
#include "exporter/kernel/answers.h"
#include "rocewatch/result.h"

namespace rocewatch::replay {

struct ReplayedNode {
  std::string sysfs_root, configfs_root, debugfs_root, procfs_root;
  // Moves the replayed sysfs counters (empty when the capture has no motion);
  // it keeps the motion it applies alive.
  fs::ValueTransform sysfs_transform;
  std::shared_ptr<kernel::KernelAnswers> kernel;
  std::string summary;  // what is replayed, for the start-up log line
};

// Checks that `dir` is a capture directory served only from inside itself and
// reads its metadata and motion. Errors name --replay=DIR.
Result<ReplayedNode> OpenReplay(const std::string& dir);

}  // namespace rocewatch::replay
