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

#include "exporter/metrics/metric_sink.h"

namespace rocewatch::metrics {

class TextRenderer final : public MetricSink {
 public:
  void Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
           double value) override;

  // The exposition text: every family's HELP, TYPE and samples. `into` is a buffer to
  // write it in (its bytes are dropped, its capacity kept: a previous page's buffer).
  std::string Take(std::string into = {}) &&;
  // The same text appended to `page`: one collector's table of a page that is written table
  // by table (exporter/pass/render_cache.h), each family's buffer let go as soon as it is copied.
  void AppendTo(std::string& page) &&;

  // Bytes each family's samples took on a page before: a family is given that much room when
  // it is first used. `hints` must outlive the renderer's Add calls; null: none.
  using SizeHints = std::unordered_map<const MetricSpec*, std::size_t>;
  void UseSizeHints(const SizeHints* hints);
  // Writes the bytes of each family's samples added so far into `hints` (for the next page).
  void KeepSizes(SizeHints& hints) const;

  // Where each sample's value is written, in the order of the Add calls that wrote one (a
  // sample dropped as malformed writes none): the index of its family in the order families
  // were first used, and the value's place in that family's samples (metrics/table_template.h).
  struct ValueAt {
    std::size_t family = 0;
    std::size_t offset = 0;
    std::size_t length = 0;
  };
  void RecordValues(std::vector<ValueAt>* into);  // null: none
  // AppendTo, also telling where each family's samples begin in `page`, in family order.
  void AppendTo(std::string& page, std::vector<std::size_t>& family_starts) &&;

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
  // The index in families_ of `spec`'s family, made when it is first used.
  std::size_t FamilyOf(const MetricSpec& spec);
  void AppendFamilies(std::string& page, std::vector<std::size_t>* family_starts);
  std::vector<ValueAt>* record_ = nullptr;
  // `escape`: false when every value is plain ASCII with nothing to escape.
  void Write(const MetricSpec& spec, const std::string_view* values, std::size_t count,
             double value, bool escape);

  std::size_t malformed_ = 0;
  std::size_t repaired_ = 0;
};

}  // namespace rocewatch::metrics
