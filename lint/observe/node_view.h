#pragma once

// NodeView: what roce-lint knows about one node of the plan — the exporter's
// metrics (parsed exposition text), how much each counter grew over the
// observation window, or why the node could not be observed. Checks read the
// metrics only through it: the metrics are the contract (docs/design.md#the-metrics-are-the-contract).

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/observe/exposition.h"

namespace rocewatch::lint::observe {

using LabelMatch = std::initializer_list<std::pair<std::string_view, std::string_view>>;

// One sample of a NodeView's metrics.
struct SampleRef {
  const Exposition* exposition = nullptr;
  std::uint32_t index = 0;
  const Sample& sample() const { return exposition->samples()[index]; }
  double value() const { return sample().value; }
  std::string_view Label(std::string_view name) const {
    return exposition->LabelValue(sample(), name).value_or(std::string_view());
  }
};

class NodeView {
 public:
  NodeView(std::string node, std::string source) : node_(std::move(node)), source_(std::move(source)) {}
  NodeView(NodeView&&) noexcept = default;
  NodeView& operator=(NodeView&&) noexcept = default;

  const std::string& node() const { return node_; }
  const std::string& source() const { return source_; }  // URL or file the metrics came from

  void SetMetrics(Exposition metrics) { metrics_ = std::move(metrics); }
  void SetError(std::string error) { error_ = std::move(error); }
  // How much every counter grew over the window (an exposition of the increases).
  void SetIncrease(Exposition increase, double window_seconds) {
    increase_ = std::move(increase);
    window_seconds_ = window_seconds;
  }

  bool reachable() const { return metrics_.has_value(); }
  const std::string& error() const { return error_; }
  const Exposition* metrics() const { return metrics_ ? &*metrics_ : nullptr; }
  bool has_increase() const { return increase_.has_value(); }
  double window_seconds() const { return window_seconds_; }

  // Every sample of `metric` whose labels include all of `labels`.
  std::vector<SampleRef> Select(std::string_view metric, LabelMatch labels = {}) const;
  // The first such sample's value.
  std::optional<double> Value(std::string_view metric, LabelMatch labels = {}) const;
  // The same in the increase exposition (counters only); empty without a window.
  std::vector<SampleRef> SelectIncrease(std::string_view metric, LabelMatch labels = {}) const;
  std::optional<double> Increase(std::string_view metric, LabelMatch labels = {}) const;

 private:
  static std::vector<SampleRef> SelectIn(const Exposition& e, std::string_view metric, LabelMatch labels);

  std::string node_, source_, error_;
  std::optional<Exposition> metrics_, increase_;
  double window_seconds_ = 0;
};

// Called with the family name and the label matchers of every Select/Value (increase false)
// and SelectIncrease/Increase (increase true) on any NodeView, for tests that check which
// families and labels the checks read (tests/lint/check_families_test.cpp). nullptr (the
// default) turns it off.
using MetricReadHook = void (*)(std::string_view metric, LabelMatch labels, bool increase);
void SetMetricReadHook(MetricReadHook hook);

// The increase of every counter series between two scrapes of one node, by the rule of
// lint/observe/counter_window.h (a series the first did not have counts from zero; a counter
// that went down was reset: its increase is its new value), as an exposition, so checks read
// it like any other metrics.
Result<Exposition> ComputeIncrease(const Exposition& before, const Exposition& after);

}  // namespace rocewatch::lint::observe
