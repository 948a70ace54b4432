#pragma once

// SourcePool: the sources of a collection pass, run by a few threads that take them in turn
// (as many as the cores allow, at most four), not a thread per source, the longest first (by
// how long each took the pass before). A pass hands every
// source that is not still busy to the pool and waits until every one has finished or the
// pass's deadline passes. A source that hangs (a firmware command that never returns, a slow
// EEPROM) is reported as timed out and its late result dropped; the other sources are served
// by the other threads, and a thread stuck past a deadline is replaced, so a hung source
// costs the pool no capacity. While a source is still stuck in an old pass it is not run
// again. A thread per source cost a scrape of a 16-device node about a fifth of its CPU in
// wake-ups and context switches (docs/performance.md).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "exporter/collectors/registry.h"
#include "exporter/inventory/inventory.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {

class SourcePool {
 public:
  using Clock = std::chrono::steady_clock;

  struct Entry {
    const collectors::CollectorInfo* info;
    std::unique_ptr<collectors::Source> source;
  };
  // `threads`: how many sources run at once; 0 picks from the cores (2 to 4).
  SourcePool(std::vector<Entry> sources, std::size_t threads = 0);
  ~SourcePool();
  SourcePool(const SourcePool&) = delete;
  SourcePool& operator=(const SourcePool&) = delete;

  // One source's part of a pass: its snapshot part and status (success false with the reason
  // when it timed out or was still busy), in the order the sources were given.
  struct Outcome {
    NodeSnapshot part;
    SourceStatus status;
    bool timed_out = false;  // cut off by the deadline (status says so); `part` is empty
  };
  // Runs every source over `inventory` (Prepare first where its generation is new to the
  // source) until `deadline`; `meanwhile`, when given, runs on the calling thread while the
  // sources do. Not thread-safe: one pass at a time.
  std::vector<Outcome> Run(std::shared_ptr<const Inventory> inventory, Clock::time_point deadline,
                           const std::function<void()>& meanwhile = {});

  std::size_t threads() const;  // running and not stuck (tests, diagnostics)

 private:
  struct Shared;
  static void Work(std::shared_ptr<Shared> shared, std::uint64_t self);
  std::shared_ptr<Shared> shared_;
};

}  // namespace rocewatch
