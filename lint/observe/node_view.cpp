#include "lint/observe/node_view.h"

#include <atomic>
#include <cmath>
#include <unordered_map>

#include "lint/observe/counter_window.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {
std::atomic<MetricReadHook> g_read_hook{nullptr};
}  // namespace

void SetMetricReadHook(MetricReadHook hook) { g_read_hook.store(hook); }

std::vector<SampleRef> NodeView::SelectIn(const Exposition& e, std::string_view metric,
                                          LabelMatch labels) {
  std::vector<SampleRef> out;
  // The first label narrows through the exposition's (metric, label) index, built once
  // per node and pair; the rest are compared by id.
  std::span<const std::uint32_t> candidates =
      labels.size() == 0 ? e.SamplesOf(metric)
                         : e.Find(metric, labels.begin()->first, labels.begin()->second);
  if (candidates.empty()) return out;
  // Label names resolved once per query; samples compared by id.
  constexpr std::size_t kMaxLabels = 8;
  std::pair<std::uint32_t, std::string_view> want[kMaxLabels];
  std::size_t n = 0;
  for (const auto& [name, value] : labels) {
    if (n == kMaxLabels) break;
    std::uint32_t id = e.NameId(name);
    if (id == Exposition::kNoName) return out;  // no sample has this label
    want[n++] = {id, value};
  }
  for (std::uint32_t idx : candidates) {
    const Sample& s = e.samples()[idx];
    bool all = true;
    for (std::size_t i = 0; i < n && all; ++i) {
      auto v = e.LabelValueById(s, want[i].first);
      all = v && *v == want[i].second;
    }
    if (all) out.push_back(SampleRef{&e, idx});
  }
  return out;
}

std::vector<SampleRef> NodeView::Select(std::string_view metric, LabelMatch labels) const {
  if (auto hook = g_read_hook.load(std::memory_order_relaxed)) hook(metric, labels, false);
  if (!metrics_) return {};
  return SelectIn(*metrics_, metric, labels);
}

std::optional<double> NodeView::Value(std::string_view metric, LabelMatch labels) const {
  auto found = Select(metric, labels);
  if (found.empty()) return std::nullopt;
  return found.front().value();
}

std::vector<SampleRef> NodeView::SelectIncrease(std::string_view metric, LabelMatch labels) const {
  if (auto hook = g_read_hook.load(std::memory_order_relaxed)) hook(metric, labels, true);
  if (!increase_) return {};
  return SelectIn(*increase_, metric, labels);
}

std::optional<double> NodeView::Increase(std::string_view metric, LabelMatch labels) const {
  auto found = SelectIncrease(metric, labels);
  if (found.empty()) return std::nullopt;
  return found.front().value();
}

Result<Exposition> ComputeIncrease(const Exposition& before, const Exposition& after) {
  std::unordered_map<std::string, double> old_values;
  for (const Sample& s : before.samples()) old_values.emplace(before.SeriesString(s), s.value);
  std::string text;
  for (const Sample& s : after.samples()) {
    std::string_view name = after.MetricName(s);
    const Family* family = after.FamilyOf(name);
    bool counter = family != nullptr ? family->type == MetricType::kCounter
                                     : name.size() > 6 && name.substr(name.size() - 6) == "_total";
    if (!counter || std::isnan(s.value)) continue;
    std::string series = after.SeriesString(s);
    // A series the earlier observation did not have counts from zero (counter_window.h).
    auto it = old_values.find(series);
    double increase = CounterGrowth(it == old_values.end() ? 0 : it->second, s.value);
    text += series;
    text += ' ';
    text += FormatDouble(increase);
    text += '\n';
  }
  return Exposition::Parse(std::move(text));
}

}  // namespace rocewatch::lint::observe
