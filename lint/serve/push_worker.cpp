#include "lint/serve/push_worker.h"

namespace rocewatch::lint::serve {

PushWorker::PushWorker(AlertmanagerOptions options, std::function<void(const PushOutcome&)> done)
    : pusher_(std::move(options)), done_(std::move(done)), thread_([this] { Loop(); }) {}

PushWorker::~PushWorker() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PushWorker::Submit(std::vector<Finding> open, std::chrono::system_clock::time_point now) {
  {
    std::lock_guard lock(mu_);
    queued_.emplace(std::move(open), now);
  }
  wake_.notify_one();
}

void PushWorker::Loop() {
  while (true) {
    std::pair<std::vector<Finding>, std::chrono::system_clock::time_point> work;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return queued_.has_value() || stop_; });
      if (stop_) break;
      work = std::move(*queued_);
      queued_.reset();
    }
    PushOutcome outcome;
    outcome.result = pusher_.Push(work.first, work.second, &stop_);
    outcome.pending_resolutions = pusher_.pending_resolutions();
    outcome.resolutions_dropped_total = pusher_.resolutions_dropped_total();
    if (!stop_) done_(outcome);
  }
}

}  // namespace rocewatch::lint::serve
