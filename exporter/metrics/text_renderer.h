#pragma once

// TextRenderer: samples written straight into the Prometheus text format
// (0.0.4), grouped per family in the order families were first used. What
// /metrics serves: at 10,000 series it costs a tenth of building
// prometheus-cpp MetricFamily objects and running its TextSerializer
// (docs/performance.md).

#include <array>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "metrics/metric_sink.h"

namespace rocewatch::metrics {

class TextRenderer final : public MetricSink {
 public:
  void Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
           double value) override;

  // The exposition text: every family's HELP, TYPE and samples. `into` is a buffer to
  // write it in (its bytes are dropped, its capacity kept: a previous page's buffer).
  std::string Take(std::string into = {}) &&;
  // The samples of each family added so far, in the order families were first used: what the
  // render cache keeps of one collector's table (collect/render_cache.h).
  using Samples = std::vector<std::pair<const MetricSpec*, std::string>>;
  Samples TakeSamples() &&;
  // Appends samples taken from a renderer before to their family, as the Add calls that
  // wrote them would have, and adds their malformed and repaired counts to this page's (the
  // process-wide count of repaired values is the caller's: label_value.h).
  void AddRendered(const Samples& samples, std::size_t malformed, std::size_t repaired);

  // Bytes each family's samples took on a page before: a family is given that much room when
  // it is first used. `hints` must outlive the renderer's Add calls; null: none.
  using SizeHints = std::unordered_map<const MetricSpec*, std::size_t>;
  void UseSizeHints(const SizeHints* hints);
  // The bytes of each family's samples added so far (the hints for the next page).
  SizeHints Sizes() const;

  std::size_t malformed() const { return malformed_; }
  // Label values of this page that were not valid UTF-8 and were repaired (label_value.h).
  std::size_t repaired() const { return repaired_; }

 private:
  struct Family {
    const MetricSpec* spec;
    std::string samples;
  };
  std::vector<Family> families_;
  std::unordered_map<const MetricSpec*, std::size_t> index_;
  struct Recent {
    const MetricSpec* spec = nullptr;
    std::size_t index = 0;
  };
  std::array<Recent, 32> recent_{};  // by a hash of the address: families_ index, looked up first
  const SizeHints* hints_ = nullptr;
  std::string& SamplesOf(const MetricSpec& spec);
  // `escape`: false when every value is plain ASCII with nothing to escape.
  void Write(const MetricSpec& spec, const std::string_view* values, std::size_t count,
             double value, bool escape);

  std::size_t malformed_ = 0;
  std::size_t repaired_ = 0;
};

// Appends `v` escaped for a label value (backslash, double quote, newline).
void AppendEscapedLabelValue(std::string& out, std::string_view v);

}  // namespace rocewatch::metrics
