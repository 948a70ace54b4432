#include "http/work_pool.h"

#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "http/http_log.h"

namespace rocewatch::http {

struct WorkPool::State {
  std::string name;
  std::size_t max_queued = 0;
  std::mutex mu;
  std::condition_variable cv;
  std::condition_variable idle;  // signalled when a job finishes
  std::deque<std::function<void()>> queue;
  int running = 0;
  bool stopping = false;
  std::chrono::milliseconds drain{0};
};

namespace {

void Work(const std::shared_ptr<WorkPool::State>& st) {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(st->mu);
      st->cv.wait(lock, [&] { return st->stopping || !st->queue.empty(); });
      if (st->stopping) return;
      job = std::move(st->queue.front());
      st->queue.pop_front();
      st->running += 1;
    }
    try {
      job();
    } catch (const std::exception& ex) {
      http_log::Error("HTTP job failed", {{"pool", st->name}, {"error", ex.what()}});
    } catch (...) {
      http_log::Error("HTTP job failed", {{"pool", st->name}, {"error", "unknown exception"}});
    }
    job = nullptr;  // what the job captured goes before the pool may be gone
    {
      std::lock_guard<std::mutex> lock(st->mu);
      st->running -= 1;
    }
    st->idle.notify_all();
  }
}

}  // namespace

WorkPool::WorkPool(std::string name, int threads, std::size_t max_queued,
                   std::chrono::milliseconds drain)
    : state_(std::make_shared<State>()) {
  state_->name = std::move(name);
  state_->drain = drain;
  state_->max_queued = max_queued;
  // Stop signals stay with the thread that waits for them.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  for (int i = 0; i < threads; ++i) {
    try {
      std::thread([st = state_] { Work(st); }).detach();
    } catch (const std::system_error& ex) {
      http_log::Warn("cannot start an HTTP worker thread",
                     {{"pool", state_->name}, {"error", ex.what()}});
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

WorkPool::~WorkPool() {
  std::deque<std::function<void()>> dropped;
  std::unique_lock<std::mutex> lock(state_->mu);
  state_->stopping = true;
  dropped.swap(state_->queue);
  state_->cv.notify_all();
  state_->idle.wait_for(lock, state_->drain, [&] { return state_->running == 0; });
}

bool WorkPool::TrySubmit(std::function<void()> job, bool first) {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->stopping || state_->queue.size() >= state_->max_queued) return false;
    if (first) {
      state_->queue.push_front(std::move(job));
    } else {
      state_->queue.push_back(std::move(job));
    }
  }
  state_->cv.notify_one();
  return true;
}

}  // namespace rocewatch::http
