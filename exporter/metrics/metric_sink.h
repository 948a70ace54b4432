#pragma once

// MetricSink: where a renderer puts samples. /metrics renders straight to
// exposition text (TextRenderer), and so do the tests (tests/common/rendered_text.h).
// Renderers write to this interface only.

#include <initializer_list>
#include <string_view>

#include "exporter/metrics/spec.h"

namespace rocewatch::metrics {

class MetricSink {
 public:
  virtual ~MetricSink() = default;
  // One sample; `label_values` in the order of spec.labels. A sample whose
  // label count does not match its spec is dropped and counted (a programming
  // error the tests catch).
  virtual void Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
                   double value) = 0;
};

}  // namespace rocewatch::metrics
