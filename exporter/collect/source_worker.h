#pragma once

// SourceWorker: one source on its own thread. A collection pass hands every
// worker the inventory and waits for them until the pass's deadline; a source
// that hangs (a firmware command that never returns, a slow EEPROM) is reported
// as timed out and its late result dropped, and the other sources are served.
// While a worker is still stuck in an old pass it is not given a new one.

#include <chrono>
#include <memory>
#include <string>

#include "inventory/inventory.h"
#include "model/snapshot.h"
#include "sources/registry.h"

namespace rocewatch {

class SourceWorker {
 public:
  using Clock = std::chrono::steady_clock;

  SourceWorker(const sources::SourceInfo* info, std::unique_ptr<sources::Source> source);
  ~SourceWorker();
  SourceWorker(const SourceWorker&) = delete;
  SourceWorker& operator=(const SourceWorker&) = delete;

  const sources::SourceInfo& info() const { return *info_; }

  // Starts a pass over `inventory` (Prepare first when its generation is new to
  // this source). False when the previous pass has not finished.
  bool Start(std::shared_ptr<const Inventory> inventory);
  // Waits for the pass until `deadline`. True with the source's part of the
  // snapshot and its status; false when the deadline passed first.
  bool Wait(Clock::time_point deadline, NodeSnapshot& part, SourceStatus& status);

 private:
  struct Shared;
  static void Run(std::shared_ptr<Shared> shared);

  const sources::SourceInfo* info_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace rocewatch
