#include "collect/source_worker.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace rocewatch {

struct SourceWorker::Shared {
  std::mutex mu;
  std::condition_variable wake, done;
  bool stop = false;
  bool has_task = false;
  bool busy = false;
  bool result_ready = false;
  std::uint64_t prepared_generation = 0;
  std::shared_ptr<const Inventory> inventory;
  std::unique_ptr<sources::Source> source;
  std::string name;
  NodeSnapshot part;
  SourceStatus status;
  std::thread thread;
};

SourceWorker::SourceWorker(const sources::SourceInfo* info, std::unique_ptr<sources::Source> source)
    : info_(info), shared_(std::make_shared<Shared>()) {
  shared_->source = std::move(source);
  shared_->name = std::string(info->name);
  shared_->thread = std::thread(&SourceWorker::Run, shared_);
}

SourceWorker::~SourceWorker() {
  std::unique_lock<std::mutex> lock(shared_->mu);
  shared_->stop = true;
  bool stuck = shared_->busy;
  lock.unlock();
  shared_->wake.notify_all();
  // A worker stuck in the kernel cannot be joined; it owns its state through
  // the shared pointer and exits when its call returns.
  if (stuck) {
    shared_->thread.detach();
  } else {
    shared_->thread.join();
  }
}

void SourceWorker::Run(std::shared_ptr<Shared> s) {
  std::unique_lock<std::mutex> lock(s->mu);
  while (true) {
    s->wake.wait(lock, [&] { return s->stop || s->has_task; });
    if (s->stop) return;
    s->has_task = false;
    s->busy = true;
    std::shared_ptr<const Inventory> inventory = s->inventory;
    bool prepare = inventory->generation != s->prepared_generation;
    lock.unlock();

    NodeSnapshot part;
    SourceStatus status;
    status.name = s->name;
    auto t0 = Clock::now();
    try {
      if (prepare) s->source->Prepare(*inventory);
      s->source->Collect(*inventory, part, status);
    } catch (const std::exception& ex) {
      // Sources do not throw by contract; a bug must still not fail the scrape.
      status.success = false;
      status.errors.push_back(std::string("internal error: ") + ex.what());
    }
    status.duration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();

    lock.lock();
    if (prepare) s->prepared_generation = inventory->generation;
    s->part = std::move(part);
    s->status = std::move(status);
    s->busy = false;
    s->result_ready = true;
    s->done.notify_all();
  }
}

bool SourceWorker::Start(std::shared_ptr<const Inventory> inventory) {
  std::lock_guard<std::mutex> lock(shared_->mu);
  if (shared_->busy || shared_->has_task) return false;
  shared_->inventory = std::move(inventory);
  shared_->result_ready = false;
  shared_->has_task = true;
  shared_->wake.notify_all();
  return true;
}

bool SourceWorker::Wait(Clock::time_point deadline, NodeSnapshot& part, SourceStatus& status) {
  std::unique_lock<std::mutex> lock(shared_->mu);
  if (!shared_->done.wait_until(lock, deadline, [&] { return shared_->result_ready; })) return false;
  shared_->result_ready = false;
  part = std::move(shared_->part);
  status = std::move(shared_->status);
  return true;
}

}  // namespace rocewatch
