#pragma once

// FamilySet: collects samples per MetricSpec while a renderer walks the
// snapshot, then hands prometheus-cpp its MetricFamily vector in spec order.

#include <initializer_list>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <prometheus/metric_family.h>

#include "metrics/metric_sink.h"
#include "metrics/spec.h"

namespace rocewatch::metrics {

class FamilySet final : public MetricSink {
 public:
  // Adds one sample; `label_values` are in the order of spec.labels. Empty
  // label values are kept (Prometheus treats them as absent labels).
  void Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
           double value) override;

  // The families with at least one sample, in the order they were first used.
  std::vector<prometheus::MetricFamily> Take() &&;

  // Samples whose label count did not match their spec (a programming error,
  // caught by the tests; the sample is dropped instead of corrupting output).
  std::size_t malformed() const { return malformed_; }

 private:
  std::vector<prometheus::MetricFamily> families_;
  std::unordered_map<const MetricSpec*, std::size_t> index_;
  std::size_t malformed_ = 0;
};

}  // namespace rocewatch::metrics
