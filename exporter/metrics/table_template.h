#pragma once

// TableTemplate: a counters' table (rdma, ethtool, netdev, the exporter's own) kept as the
// text it was last rendered to, with where each sample's value stands in it. A pass whose
// render adds the same samples (the same families, the same label values, in the same order:
// checked sample by sample against the ones kept) only writes the numbers anew, in place where
// each is as long as before; any difference renders the table afresh and keeps that. So the
// text is byte for byte what a fresh render writes (tests/exporter/table_template_test.cpp),
// and the label text of a series, the same on every pass, is written once per inventory.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "exporter/metrics/metric_sink.h"
#include "exporter/metrics/text_renderer.h"

namespace rocewatch::metrics {

class TableTemplate {
 public:
  // Appends the table `render` writes to `page`. `hints` are the families' sizes of the page
  // before (text_renderer.h), used and updated when the table is rendered afresh.
  void RenderOnto(const std::function<void(MetricSink&)>& render, std::string& page,
                  TextRenderer::SizeHints& hints);

  // Passes whose numbers were written into the kept text, and tables rendered afresh (tests).
  std::size_t reused() const { return reused_; }
  std::size_t rendered() const { return rendered_; }

 private:
  class Check;
  struct Sample {
    const MetricSpec* spec = nullptr;
    std::size_t labels_at = 0;   // its first label value's index in label_sizes_
    std::size_t bytes_at = 0;    // and where that value begins in labels_
    std::size_t value_at = 0;    // where its value stands in text_
    std::size_t value_size = 0;
  };
  void RenderAfresh(const std::function<void(MetricSink&)>& render, TextRenderer::SizeHints& hints);
  // Writes `values` (in the order of samples_) into text_; false when one is longer or shorter
  // than the one before (then text_ is written again around them, RewriteValues).
  bool WriteValuesInPlace(const std::vector<double>& values);
  void RewriteValues(const std::vector<double>& values);

  std::string text_;                    // the table, HELP and TYPE lines included
  std::vector<Sample> samples_;         // in the order of the Add calls
  std::vector<std::size_t> by_place_;   // samples_ indices in the order their values stand
  std::string labels_;                  // every sample's label values, one after another
  std::vector<std::size_t> label_sizes_;
  std::size_t repaired_ = 0;            // label values the kept render repaired (label_value.h)
  bool usable_ = false;                 // false: render afresh (none kept, or malformed samples)
  std::vector<double> values_;          // scratch: this pass's values
  std::string number_;                  // scratch: one value's text
  std::size_t reused_ = 0, rendered_ = 0;
};

}  // namespace rocewatch::metrics
