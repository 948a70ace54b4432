#pragma once

// A source reads one kind of kernel state into its own section of the
// NodeSnapshot. It never touches prometheus-cpp; errors are values recorded in
// its SourceStatus, and a source that fails leaves the others untouched.

#include <map>
#include <memory>
#include <string>

#include "exporter/fs/tree.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/model/snapshot.h"
#include "rocewatch/result.h"

namespace rocewatch::collectors {

// What a source is built with: the trees to read and its own options
// (--collector.<name>.<option>=value, defaults applied).
struct SourceEnv {
  const fs::Tree* sysfs = nullptr;
  const fs::Tree* configfs = nullptr;
  const fs::Tree* debugfs = nullptr;
  const fs::Tree* procfs = nullptr;  // /proc (a process's cgroup)
  kernel::KernelAnswers* kernel = nullptr;  // ioctl/netlink answers: live, recording or replay
  std::map<std::string, std::string> options;

  const std::string& Option(const std::string& name) const;
};

class Source {
 public:
  virtual ~Source() = default;
  // Called when the inventory changed: drop held descriptors of devices that
  // went away and read the attributes that only change with the device.
  virtual void Prepare(const Inventory& inventory) = 0;
  // One collection pass. Must not throw; problems go into `status`. A device or
  // attribute that vanished is counted in status.vanished_total and skipped.
  virtual void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) = 0;
};

}  // namespace rocewatch::collectors
