#include "exporter/pass/scrape_coalescer.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>

#include "exporter/collectors/registry.h"
#include "exporter/log.h"
#include "exporter/metrics/exporter_metrics.h"
#include "exporter/metrics/text_renderer.h"

namespace rocewatch {

struct ScrapeCoalescer::Pass {
  NodeSnapshot snap;
  metrics::CollectorStats stats;
  const std::vector<std::string>* enabled = nullptr;
  mutable std::once_flag text_once;
  mutable std::shared_ptr<const std::string> text;
};

// The buffer of the last page, handed back when its last reader (a response being sent) lets
// go, so that the next page is written into memory already mapped: a page is 0.3 MB on a
// 16-device node, above the fixed mmap threshold (main.cpp), and a fresh one cost a page
// fault per 4 KiB and an munmap on every scrape (docs/performance.md).
struct ScrapeCoalescer::TextBuffer {
  std::mutex mu;
  std::string spare;
  std::string Get() {
    std::lock_guard<std::mutex> lock(mu);
    return std::move(spare);
  }
  static std::shared_ptr<const std::string> Share(const std::shared_ptr<TextBuffer>& buffer,
                                                  std::string text) {
    return std::shared_ptr<const std::string>(
        new std::string(std::move(text)), [weak = std::weak_ptr<TextBuffer>(buffer)](const std::string* s) {
          std::unique_ptr<std::string> owned(const_cast<std::string*>(s));
          if (auto b = weak.lock()) {
            std::lock_guard<std::mutex> lock(b->mu);
            if (owned->capacity() > b->spare.capacity()) b->spare = std::move(*owned);
          }
        });
  }
};

void RenderSnapshot(const NodeSnapshot& snap, const std::vector<std::string>& enabled,
                    const metrics::CollectorStats& stats, metrics::MetricSink& out) {
  for (const auto& name : enabled) {
    if (const auto* info = collectors::FindCollector(name)) info->render(snap, out);
  }
  metrics::RenderExporter(snap, stats, out);
}

ScrapeCoalescer::ScrapeCoalescer(std::unique_ptr<PassRunner> collector, double timeout_offset_seconds,
                                 double coalesce_window_seconds)
    : collector_(std::move(collector)),
      timeout_offset_seconds_(timeout_offset_seconds),
      coalesce_window_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(coalesce_window_seconds))),
      text_buffer_(std::make_shared<TextBuffer>()) {}

std::shared_ptr<const void> ScrapeCoalescer::TakeRetired() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::move(retired_);
}

int ScrapeCoalescer::waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return waiting_;
}

std::shared_ptr<const ScrapeCoalescer::Pass> ScrapeCoalescer::Run(std::optional<double> scrape_timeout) const {
  std::unique_lock<std::mutex> lock(mu_);
  if (running_) {
    // Wait for the pass in flight and answer with it: not with last_, which a pass started
    // after it (and before this thread woke) has already let go of.
    std::shared_ptr<const Pass> joined = in_flight_;
    std::uint64_t pass = passes_;
    ++waiting_;
    done_.wait(lock, [&] { return passes_ != pass; });
    --waiting_;
    coalesced_total_ += 1;
    return joined;
  }
  if (last_ && coalesce_window_.count() > 0 &&
      std::chrono::steady_clock::now() - last_finished_ < coalesce_window_) {
    coalesced_total_ += 1;
    return last_;
  }
  running_ = true;
  auto pass = std::make_shared<Pass>();
  in_flight_ = pass;
  // The previous pass will not answer anyone again (waiters get the new one): it is let go
  // by the scrape this pass answers, once its answer is handed over (TakeRetired), off the
  // scrape's path. One retired before and not taken goes now.
  std::shared_ptr<const Pass> unclaimed = std::exchange(retired_, std::move(last_));
  lock.unlock();
  unclaimed.reset();

  // The scrape's own timeout (Prometheus sends it with each request) bounds
  // this pass, less a margin for rendering and sending the answer.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (const auto& timeout = scrape_timeout) {
    double usable = std::max(0.1, *timeout - timeout_offset_seconds_);
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(usable));
  }
  pass->enabled = &collector_->enabled_collectors();
  try {
    pass->snap = collector_->Collect(deadline);
  } catch (const std::exception& ex) {
    log::Error("collection failed", {{"error", ex.what()}});
  } catch (...) {
    log::Error("collection failed", {{"error", "unknown exception"}});
  }
  pass->stats = collector_->stats();
  pass->stats.coalesced_total = static_cast<double>(coalesced_total_.load());

  lock.lock();
  last_ = pass;
  in_flight_.reset();
  last_finished_ = std::chrono::steady_clock::now();
  ++passes_;
  running_ = false;
  lock.unlock();
  done_.notify_all();
  return pass;
}

std::shared_ptr<const std::string> ScrapeCoalescer::CollectText(std::optional<double> scrape_timeout) const {
  std::shared_ptr<const Pass> pass = Run(scrape_timeout);
  std::call_once(pass->text_once, [&] {
    std::string page = text_buffer_->Get();
    render_cache_.Render(pass->snap, *pass->enabled, pass->stats, page);
    pass->text = TextBuffer::Share(text_buffer_, std::move(page));
  });
  return pass->text;
}

}  // namespace rocewatch
