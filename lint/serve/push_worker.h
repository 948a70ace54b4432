#pragma once

// The Alertmanager push of `roce-lint serve`, apart from its runs: a run hands its findings over
// and goes on; a thread of its own pushes them (with AlertmanagerPusher's retries), so a slow or
// hung Alertmanager never delays a run nor what /metrics shows. The queue holds one state: a
// push carries every open alert and pending resolution, so a newer state replaces one not yet
// sent (bounded memory however long Alertmanager is away). Destroying the worker stops it: the
// retries end at once, a request in flight within its timeout.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "lint/core/finding.h"
#include "lint/serve/alertmanager.h"

namespace rocewatch::lint::serve {

struct PushOutcome {
  PushResult result;
  std::size_t pending_resolutions = 0;
  double resolutions_dropped_total = 0;
};

class PushWorker {
 public:
  // `done` runs on the worker's thread after each push.
  PushWorker(AlertmanagerOptions options, std::function<void(const PushOutcome&)> done);
  ~PushWorker();
  PushWorker(const PushWorker&) = delete;
  PushWorker& operator=(const PushWorker&) = delete;

  // Queues the run's open findings (replacing a state not yet pushed); never waits for a push.
  void Submit(std::vector<Finding> open, std::chrono::system_clock::time_point now);

 private:
  void Loop();

  AlertmanagerPusher pusher_;
  std::function<void(const PushOutcome&)> done_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::optional<std::pair<std::vector<Finding>, std::chrono::system_clock::time_point>> queued_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace rocewatch::lint::serve
