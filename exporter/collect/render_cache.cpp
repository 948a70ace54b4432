#include "collect/render_cache.h"

#include "metrics/label_value.h"
#include "sources/registry.h"

namespace rocewatch {

void RenderCache::Render(const NodeSnapshot& snap, const std::vector<std::string>& enabled,
                         const metrics::CollectorStats& stats, metrics::TextRenderer& out) {
  std::lock_guard<std::mutex> lock(mu_);
  out.UseSizeHints(&page_sizes_);
  for (const auto& name : enabled) {
    const sources::SourceInfo* info = sources::FindSource(name);
    if (info == nullptr) continue;
    if (!info->render_input) {
      info->render(snap, out);
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
      kept.malformed = table.malformed();
      kept.repaired = table.repaired();
      kept.samples = std::move(table).TakeSamples();
      it = kept_.insert_or_assign(name, std::move(kept)).first;
      ++rendered_;
    }
    out.AddRendered(it->second.samples, it->second.malformed, it->second.repaired);
  }
  metrics::RenderExporter(snap, stats, out);
  out.UseSizeHints(nullptr);
  page_sizes_ = out.Sizes();
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
