#pragma once

// RenderCache: a page's text with the tables of collectors whose input did not change since
// the pass that rendered them served from that pass's text. A collector opts in by naming its
// render input (exporter/collectors/render_input.h: its own section, compared with ==); its table is
// rendered again whenever that input differs, so the page is byte for byte what a fresh
// render writes (tests/exporter/render_cache_test.cpp). Counters' collectors (rdma, ethtool,
// netdev) change every pass and are always rendered.
//
// The page is written table by table: each collector's families are its own (declared in its
// own metrics file, tests/exporter/catalogue_test.cpp), so a table's text, HELP and TYPE lines
// included, is what it is wherever it stands, and a kept table is one copy into the page.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exporter/metrics/exporter_metrics.h"
#include "exporter/metrics/table_template.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/model/snapshot.h"

namespace rocewatch {

class RenderCache {
 public:
  // What RenderSnapshot writes (exporter/pass/scrape_coalescer.h: every enabled collector's table,
  // then the exporter's own series), in `page` (its bytes replaced, its capacity kept: the
  // buffer of a page before). Renders of two passes take turns.
  void Render(const NodeSnapshot& snap, const std::vector<std::string>& enabled,
              const metrics::CollectorStats& stats, std::string& page);

  // Tables served from the cache and rendered for it, since start (tests, diagnostics).
  std::uint64_t served() const;
  std::uint64_t rendered() const;

 private:
  struct Kept {
    std::shared_ptr<const void> input;  // a copy of what the table was rendered from
    std::string text;                   // the table, HELP and TYPE lines included
    std::size_t repaired = 0;           // label values it repaired (label_value.h)
  };
  // Renders a counters' table (`render(sink)`, no render input) onto the end of `page`, through
  // its template (metrics/table_template.h): only the numbers are written anew while it adds
  // the same series.
  void RenderOnto(const std::string& table, const std::function<void(metrics::MetricSink&)>& render,
                  std::string& page);
  mutable std::mutex mu_;
  std::map<std::string, Kept, std::less<>> kept_;  // by collector name
  std::map<std::string, metrics::TableTemplate, std::less<>> templates_;  // by collector name
  metrics::TextRenderer::SizeHints sizes_;         // the families' bytes on the page before
  std::size_t page_bytes_ = 0;                     // the page before
  std::uint64_t served_ = 0, rendered_ = 0;
};

}  // namespace rocewatch
