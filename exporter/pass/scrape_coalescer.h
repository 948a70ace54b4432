#pragma once

// ScrapeCoalescer: what answers /metrics. Concurrent scrapes share one
// in-flight collection pass instead of each running their own (16 simultaneous
// scrapes cost about one collection), and a scrape that arrives within the
// coalesce window after a pass finished is answered from it (several Prometheus
// replicas scraping at the same second). A pass is rendered to text once and
// the same bytes go to every scrape that shares it. Exceptions stop here.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "exporter/metrics/metric_sink.h"
#include "exporter/pass/render_cache.h"
#include "exporter/pass/runner.h"

namespace rocewatch {

class ScrapeCoalescer {
 public:
  // `timeout_offset_seconds` is kept free of a scrape's announced timeout for
  // rendering and sending the answer (--web.scrape-timeout-offset).
  explicit ScrapeCoalescer(std::unique_ptr<PassRunner> collector, double timeout_offset_seconds = 0.5,
                           double coalesce_window_seconds = 0);

  // The exposition text of a (possibly shared) pass. `scrape_timeout` (seconds, the
  // request's X-Prometheus-Scrape-Timeout-Seconds) bounds a pass this call starts, less the
  // offset; a pass already in flight is shared as it is.
  std::shared_ptr<const std::string> CollectText(std::optional<double> scrape_timeout = std::nullopt) const;

  // The pass before the last, which answers no one again, for the caller to let go once its
  // answer is on its way (http/routes.h HttpResponse::release_after); null when another
  // caller took it. Not taken, it goes when the next pass starts.
  std::shared_ptr<const void> TakeRetired() const;

  // Scrapes waiting for the pass in flight (for tests and diagnostics).
  int waiting() const;

 private:
  struct Pass;
  std::shared_ptr<const Pass> Run(std::optional<double> scrape_timeout) const;

  std::unique_ptr<PassRunner> collector_;
  double timeout_offset_seconds_;
  std::chrono::steady_clock::duration coalesce_window_;
  mutable std::mutex mu_;
  mutable std::condition_variable done_;
  mutable bool running_ = false;
  mutable int waiting_ = 0;
  mutable std::uint64_t passes_ = 0;
  mutable std::shared_ptr<const Pass> last_;
  mutable std::shared_ptr<const Pass> in_flight_;  // the pass running_ stands for
  mutable std::shared_ptr<const Pass> retired_;    // TakeRetired
  mutable std::chrono::steady_clock::time_point last_finished_{};
  mutable std::atomic<std::uint64_t> coalesced_total_{0};
  struct TextBuffer;  // the last page's buffer, written again by the next
  std::shared_ptr<TextBuffer> text_buffer_;
  mutable RenderCache render_cache_;
};

// Renders a snapshot into `out`: every enabled collector's table, then the
// exporter's own series.
void RenderSnapshot(const NodeSnapshot& snap, const std::vector<std::string>& enabled,
                    const metrics::CollectorStats& stats, metrics::MetricSink& out);

}  // namespace rocewatch
