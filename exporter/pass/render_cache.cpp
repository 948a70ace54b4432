#include "exporter/pass/render_cache.h"

#include "exporter/collectors/registry.h"
#include "exporter/metrics/label_value.h"

namespace rocewatch {

void RenderCache::RenderOnto(const std::string& table,
                             const std::function<void(metrics::MetricSink&)>& render, std::string& page) {
  auto it = templates_.find(table);
  if (it == templates_.end()) it = templates_.emplace(table, metrics::TableTemplate()).first;
  it->second.RenderOnto(render, page, sizes_);
}

void RenderCache::Render(const NodeSnapshot& snap, const std::vector<std::string>& enabled,
                         const metrics::CollectorStats& stats, std::string& page) {
  std::lock_guard<std::mutex> lock(mu_);
  page.clear();
  // With headroom: this page, a few bytes longer than the one before (timings, counters gaining
  // a digit), is written without growing, and so is the next in this buffer when it comes back
  // (exporter/pass/scrape_coalescer.cpp).
  if (page.capacity() < page_bytes_ + page_bytes_ / 16) page.reserve(page_bytes_ + page_bytes_ / 16);
  for (const auto& name : enabled) {
    const collectors::CollectorInfo* info = collectors::FindCollector(name);
    if (info == nullptr) continue;
    if (!info->render_input) {
      RenderOnto(name, [&](metrics::MetricSink& out) { info->render(snap, out); }, page);
      continue;
    }
    auto it = kept_.find(name);
    if (it != kept_.end() && info->render_input.same(snap, it->second.input.get())) {
      ++served_;
      // Every page counts the values it repaired (label_value.h), as a fresh render would.
      for (std::size_t i = 0; i < it->second.repaired; ++i) metrics::CountRepairedLabelValue();
    } else {
      metrics::TextRenderer table;
      info->render(snap, table);
      Kept kept;
      kept.input = info->render_input.keep(snap);
      kept.repaired = table.repaired();
      std::move(table).AppendTo(kept.text);
      it = kept_.insert_or_assign(name, std::move(kept)).first;
      ++rendered_;
    }
    page += it->second.text;
  }
  // The exporter's own series: under a name no collector has.
  RenderOnto("", [&](metrics::MetricSink& out) { metrics::RenderExporter(snap, stats, out); }, page);
  page_bytes_ = page.size();
}

std::uint64_t RenderCache::served() const {
  std::lock_guard<std::mutex> lock(mu_);
  return served_;
}

std::uint64_t RenderCache::rendered() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rendered_;
}

}  // namespace rocewatch
