#pragma once

// A fixed number of threads taking jobs from a bounded queue: where the HTTP server runs
// what must not run on its event loop (a collection, a bcrypt check). TrySubmit refuses
// when the queue is full, so a flood is answered 503 instead of growing memory.
//
// The threads hold the pool's state, not the pool: destroying the pool drops the queued
// jobs, then waits at most `drain` for the jobs already running. A job that touches objects
// its caller owns (a collection reads the exporter's sources) needs that wait, or it runs on
// while they are destroyed; a job that holds what it uses (a bcrypt check owns its
// authenticator) gets a zero drain, so shutdown never waits for it.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace rocewatch::http {

class WorkPool {
 public:
  WorkPool(std::string name, int threads, std::size_t max_queued,
           std::chrono::milliseconds drain = std::chrono::milliseconds(0));
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Queues `job` (at the front when `first`); false when the queue is full (or the pool
  // stopping).
  bool TrySubmit(std::function<void()> job, bool first = false);

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace rocewatch::http
