#include "exporter/pass/source_pool.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace rocewatch {

struct SourcePool::Shared {
  struct Slot {
    std::unique_ptr<collectors::Source> source;
    std::string name;
    std::uint64_t prepared_generation = 0;
    bool busy = false;      // queued or running
    bool running = false;   // taken by a thread
    bool late = false;      // still running after its pass closed: its thread counts as stuck
    bool finished = false;  // its result for the open pass is in part/status
    double last_seconds = 0;  // how long its last finished run took: the longest go first
    NodeSnapshot part;
    SourceStatus status;
  };

  std::mutex mu;
  std::condition_variable work, done;
  std::vector<Slot> slots;
  std::deque<std::size_t> queue;  // slots of the open pass not yet taken
  std::shared_ptr<const Inventory> inventory;
  std::size_t pending = 0;   // sources of the open pass not finished
  std::size_t wanted = 2;    // threads free to take work
  std::size_t alive = 0;     // threads started and not exited
  std::size_t stuck = 0;     // of them, running a source of a closed pass
  bool stop = false;
  struct Thread {
    std::thread thread;
    bool exited = false;  // its function returned (or is returning): join does not wait
  };
  std::map<std::uint64_t, Thread> threads;  // by id; exited ones are joined at the next Spawn
  std::uint64_t next_thread = 0;

  // Starts a thread. Called with the lock held; joins the threads that left first (a thread
  // replaced while stuck leaves when its source returns), so that a source that hangs again
  // and again costs no thread that is never joined.
  void Spawn(const std::shared_ptr<Shared>& self) {
    for (auto it = threads.begin(); it != threads.end();) {
      if (!it->second.exited) {
        ++it;
        continue;
      }
      it->second.thread.join();  // it let go of the lock for the last time: this does not wait on us
      it = threads.erase(it);
    }
    ++alive;
    const std::uint64_t id = next_thread++;
    threads[id].thread = std::thread(&SourcePool::Work, self, id);
  }
};

namespace {

std::size_t DefaultThreads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return std::clamp<std::size_t>(cores, 2, 4);
}

}  // namespace

SourcePool::SourcePool(std::vector<Entry> sources, std::size_t threads)
    : shared_(std::make_shared<Shared>()) {
  for (auto& e : sources) {
    Shared::Slot slot;
    slot.name = std::string(e.info->name);
    slot.source = std::move(e.source);
    shared_->slots.push_back(std::move(slot));
  }
  const std::size_t n = threads != 0 ? threads : DefaultThreads();
  shared_->wanted = std::max<std::size_t>(1, std::min(n, shared_->slots.size()));
}

SourcePool::~SourcePool() {
  std::unique_lock<std::mutex> lock(shared_->mu);
  shared_->stop = true;
  shared_->work.notify_all();
  // Idle threads leave at once and are joined, so that the sources are destroyed here; a
  // thread stuck in the kernel cannot be waited for: it owns the pool's state (and the
  // sources) through its shared pointer and exits when its call returns.
  shared_->done.wait(lock, [&] { return shared_->alive == shared_->stuck; });
  std::map<std::uint64_t, Shared::Thread> threads = std::move(shared_->threads);
  shared_->threads.clear();
  lock.unlock();
  for (auto& [id, t] : threads) {
    if (t.exited) {
      t.thread.join();
    } else {
      t.thread.detach();
    }
  }
}

std::size_t SourcePool::threads() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->alive - shared_->stuck;
}

void SourcePool::Work(std::shared_ptr<Shared> s, std::uint64_t self) {
  std::unique_lock<std::mutex> lock(s->mu);
  while (true) {
    s->work.wait(lock, [&] { return s->stop || !s->queue.empty() || s->alive - s->stuck > s->wanted; });
    if (s->stop || s->queue.empty()) {  // stopping, or a replaced thread come back: surplus
      --s->alive;
      if (auto it = s->threads.find(self); it != s->threads.end()) it->second.exited = true;
      s->done.notify_all();
      return;
    }
    const std::size_t index = s->queue.front();
    s->queue.pop_front();
    Shared::Slot& slot = s->slots[index];
    slot.running = true;
    std::shared_ptr<const Inventory> inventory = s->inventory;
    const bool prepare = inventory->generation != slot.prepared_generation;
    lock.unlock();

    NodeSnapshot part;
    SourceStatus status;
    status.name = slot.name;
    const auto t0 = Clock::now();
    try {
      if (prepare) slot.source->Prepare(*inventory);
      slot.source->Collect(*inventory, part, status);
    } catch (const std::exception& ex) {
      // Sources do not throw by contract; a bug must still not fail the scrape.
      status.success = false;
      status.errors.push_back(std::string("internal error: ") + ex.what());
    }
    status.duration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();

    lock.lock();
    if (prepare) slot.prepared_generation = inventory->generation;
    slot.busy = slot.running = false;
    if (slot.late) {  // its pass closed without it: the result is dropped
      slot.late = false;
      --s->stuck;
      if (s->stop) s->done.notify_all();
      continue;
    }
    slot.last_seconds = status.duration_seconds;
    slot.part = std::move(part);
    slot.status = std::move(status);
    slot.finished = true;
    if (--s->pending == 0) {
      // Woken after the lock is let go, so that the collecting thread does not wake only to
      // wait for it.
      lock.unlock();
      s->done.notify_all();
      lock.lock();
    }
  }
}

std::vector<SourcePool::Outcome> SourcePool::Run(std::shared_ptr<const Inventory> inventory,
                                                 Clock::time_point deadline,
                                                 const std::function<void()>& meanwhile) {
  Shared& s = *shared_;
  const auto start = Clock::now();
  std::vector<Outcome> out(s.slots.size());
  std::unique_lock<std::mutex> lock(s.mu);
  s.inventory = std::move(inventory);
  s.pending = 0;
  std::vector<bool> queued(s.slots.size(), false);
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    Shared::Slot& slot = s.slots[i];
    out[i].status.name = slot.name;
    if (slot.busy) {
      out[i].status.success = false;
      out[i].status.errors.push_back("still busy with an earlier pass that ran past its deadline");
      continue;
    }
    slot.busy = true;
    slot.finished = false;
    queued[i] = true;
    s.queue.push_back(i);
    ++s.pending;
  }
  // The longest first (as long as they took the pass before; registry order among equals and
  // before a first run): the threads then finish together instead of one taking the last
  // long source while the others wait (greedy longest-processing-time order).
  std::stable_sort(s.queue.begin(), s.queue.end(), [&](std::size_t a, std::size_t b) {
    return s.slots[a].last_seconds > s.slots[b].last_seconds;
  });
  // A thread stuck in an earlier pass is replaced, so that the others keep their pace.
  while (s.alive - s.stuck < s.wanted) s.Spawn(shared_);
  lock.unlock();
  s.work.notify_all();
  if (meanwhile) meanwhile();

  lock.lock();
  s.done.wait_until(lock, deadline, [&] { return s.pending == 0; });
  const double waited = std::chrono::duration<double>(Clock::now() - start).count();
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    Shared::Slot& slot = s.slots[i];
    if (!queued[i]) continue;  // still busy from before: reported above
    if (slot.finished) {
      slot.finished = false;
      out[i].part = std::move(slot.part);
      out[i].status = std::move(slot.status);
      continue;
    }
    out[i].timed_out = true;
    out[i].status.success = false;
    out[i].status.duration_seconds = waited;
    if (slot.running) {
      slot.late = true;
      ++s.stuck;
      out[i].status.errors.push_back("timed out after " + std::to_string(waited) +
                                     " s; its series are left out of this scrape");
    } else {
      s.queue.erase(std::find(s.queue.begin(), s.queue.end(), i));
      slot.busy = false;
      out[i].status.errors.push_back("timed out after " + std::to_string(waited) +
                                     " s before it started (every collector thread was busy); its "
                                     "series are left out of this scrape");
    }
  }
  s.pending = 0;
  return out;
}

}  // namespace rocewatch
