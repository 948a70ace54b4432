#pragma once

// RenderCache: a page's text with the tables of collectors whose input did not change since
// the pass that rendered them served from that pass's text. A collector opts in by naming its
// render input (sources/render_input.h: its own section, compared with ==); its table is
// rendered again whenever that input differs, so the page is byte for byte what a fresh
// render writes (tests/exporter/render_cache_test.cpp). Counters' collectors (rdma, ethtool,
// netdev) change every pass and are always rendered.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metrics/exporter_metrics.h"
#include "metrics/text_renderer.h"
#include "model/snapshot.h"

namespace rocewatch {

class RenderCache {
 public:
  // What RenderSnapshot writes (collect/scrape_coalescer.h: every enabled collector's table,
  // then the exporter's own series) into `out`. Renders of two passes take turns.
  void Render(const NodeSnapshot& snap, const std::vector<std::string>& enabled,
              const metrics::CollectorStats& stats, metrics::TextRenderer& out);

  // Tables served from the cache and rendered for it, since start (tests, diagnostics).
  std::uint64_t served() const;
  std::uint64_t rendered() const;

 private:
  struct Kept {
    std::shared_ptr<const void> input;  // a copy of what the table was rendered from
    metrics::TextRenderer::Samples samples;
    std::size_t malformed = 0, repaired = 0;
  };
  mutable std::mutex mu_;
  std::map<std::string, Kept, std::less<>> kept_;  // by collector name
  metrics::TextRenderer::SizeHints page_sizes_;    // of the page before (text_renderer.h)
  std::uint64_t served_ = 0, rendered_ = 0;
};

}  // namespace rocewatch
