#pragma once

// A fixed number of threads taking jobs from a bounded queue: where the HTTP server runs
// what must not run on its event loop (a collection, a bcrypt check). TrySubmit refuses
// when the queue is full, so a flood is answered 503 instead of growing memory.
//
// The threads hold the pool's state, not the pool: destroying the pool drops the queued
// jobs and returns at once, and a job still running (a bcrypt check of seconds, a
// collection) finishes on its own thread, which then exits. Shutdown never waits for one.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace rocewatch::http {

class WorkPool {
 public:
  WorkPool(std::string name, int threads, std::size_t max_queued);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Queues `job`; false when the queue is full (or the pool stopping).
  bool TrySubmit(std::function<void()> job);

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace rocewatch::http
