#include "exporter/metrics/table_template.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "exporter/metrics/label_value.h"
#include "rocewatch/strings.h"

namespace rocewatch::metrics {

// Checks a render against the kept samples, sample by sample, and collects its values.
class TableTemplate::Check final : public MetricSink {
 public:
  Check(const TableTemplate& kept, std::vector<double>& values) : kept_(kept), values_(values) {
    values_.clear();
    values_.reserve(kept_.samples_.size());
  }

  void Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
           double value) override {
    if (!same_) return;
    const std::size_t i = values_.size();
    if (i >= kept_.samples_.size() || kept_.samples_[i].spec != &spec ||
        label_values.size() != spec.labels.size()) {
      same_ = false;
      return;
    }
    const Sample& s = kept_.samples_[i];
    std::size_t k = s.labels_at;
    std::size_t at = s.bytes_at;
    for (std::string_view v : label_values) {
      const std::size_t size = kept_.label_sizes_[k++];
      if (v.size() != size || std::memcmp(kept_.labels_.data() + at, v.data(), size) != 0) {
        same_ = false;
        return;
      }
      at += size;
    }
    values_.push_back(value);
  }

  bool same() const { return same_ && values_.size() == kept_.samples_.size(); }

 private:
  const TableTemplate& kept_;
  std::vector<double>& values_;
  bool same_ = true;
};

void TableTemplate::RenderOnto(const std::function<void(MetricSink&)>& render, std::string& page,
                               TextRenderer::SizeHints& hints) {
  if (usable_) {
    Check check(*this, values_);
    render(check);
    if (check.same()) {
      // Every page counts the values it repaired (label_value.h), as a fresh render would.
      for (std::size_t i = 0; i < repaired_; ++i) CountRepairedLabelValue();
      if (!WriteValuesInPlace(values_)) RewriteValues(values_);
      ++reused_;
      page += text_;
      return;
    }
  }
  RenderAfresh(render, hints);
  page += text_;
}

void TableTemplate::RenderAfresh(const std::function<void(MetricSink&)>& render,
                                 TextRenderer::SizeHints& hints) {
  // Keeps each sample's family and label values while the renderer writes it.
  class Keep final : public MetricSink {
   public:
    Keep(TableTemplate& kept, TextRenderer& table) : kept_(kept), table_(table) {}
    void Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
             double value) override {
      kept_.samples_.push_back({&spec, kept_.label_sizes_.size(), kept_.labels_.size(), 0, 0});
      for (std::string_view v : label_values) {
        kept_.labels_ += v;
        kept_.label_sizes_.push_back(v.size());
      }
      table_.Add(spec, label_values, value);
    }

   private:
    TableTemplate& kept_;
    TextRenderer& table_;
  };

  samples_.clear();
  labels_.clear();
  label_sizes_.clear();
  TextRenderer table;
  table.UseSizeHints(&hints);
  std::vector<TextRenderer::ValueAt> values_at;
  table.RecordValues(&values_at);
  Keep keep(*this, table);
  render(keep);
  table.KeepSizes(hints);
  repaired_ = table.repaired();
  // A sample dropped as malformed wrote no value: the kept samples and the values no longer
  // pair up, so such a table is rendered afresh every time (a programming error tests catch).
  usable_ = table.malformed() == 0 && values_at.size() == samples_.size();
  text_.clear();
  std::vector<std::size_t> family_starts;
  std::move(table).AppendTo(text_, family_starts);
  by_place_.clear();
  if (usable_) {
    for (std::size_t i = 0; i < samples_.size(); ++i) {
      samples_[i].value_at = family_starts[values_at[i].family] + values_at[i].offset;
      samples_[i].value_size = values_at[i].length;
    }
    by_place_.resize(samples_.size());
    std::iota(by_place_.begin(), by_place_.end(), std::size_t{0});
    std::sort(by_place_.begin(), by_place_.end(),
              [&](std::size_t a, std::size_t b) { return samples_[a].value_at < samples_[b].value_at; });
  }
  ++rendered_;
}

bool TableTemplate::WriteValuesInPlace(const std::vector<double>& values) {
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    number_.clear();
    AppendDouble(number_, values[i]);
    if (number_.size() != samples_[i].value_size) return false;
    std::memcpy(text_.data() + samples_[i].value_at, number_.data(), number_.size());
  }
  return true;
}

void TableTemplate::RewriteValues(const std::vector<double>& values) {
  std::string out;
  out.reserve(text_.size() + text_.size() / 16);
  std::size_t copied = 0;
  for (std::size_t i : by_place_) {
    Sample& s = samples_[i];
    out.append(text_, copied, s.value_at - copied);
    copied = s.value_at + s.value_size;
    s.value_at = out.size();
    AppendDouble(out, values[i]);
    s.value_size = out.size() - s.value_at;
  }
  out.append(text_, copied, std::string::npos);
  text_.swap(out);
}

}  // namespace rocewatch::metrics
