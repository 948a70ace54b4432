#include "lint/observe/exposition.h"

#include <mutex>
#include <unordered_map>

namespace rocewatch::lint::observe {

struct Exposition::LazyIndex {
  std::mutex mu;
  // (metric id << 32 | label id) -> label value -> sample indices
  std::unordered_map<std::uint64_t,
                     std::unordered_map<std::string_view, std::vector<std::uint32_t>>>
      by_label;
};

Exposition::Exposition()
    : text_(std::make_unique<std::string>()), lazy_(std::make_unique<LazyIndex>()) {}
Exposition::Exposition(Exposition&&) noexcept = default;
Exposition& Exposition::operator=(Exposition&&) noexcept = default;
Exposition::~Exposition() = default;

std::string_view MetricTypeName(MetricType type) {
  switch (type) {
    case MetricType::kUntyped:
      return "untyped";
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
    case MetricType::kSummary:
      return "summary";
  }
  return "untyped";
}

namespace {

void EscapeLabelValue(std::string& out, std::string_view v) {
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
}

}  // namespace

std::optional<std::string_view> Exposition::LabelValue(const Sample& s,
                                                       std::string_view label_name) const {
  // A sample has a handful of labels: comparing their names beats hashing `label_name`.
  for (const Label& l : LabelsOf(s)) {
    if (names_.Name(l.name) == label_name) return l.value;
  }
  return std::nullopt;
}

std::uint32_t Exposition::NameId(std::string_view name) const {
  std::uint32_t id = names_.Find(name);
  return id == NameTable::kNotFound ? kNoName : id;
}

std::optional<std::string_view> Exposition::LabelValueById(const Sample& s,
                                                           std::uint32_t label_id) const {
  for (const Label& l : LabelsOf(s)) {
    if (l.name == label_id) return l.value;
  }
  return std::nullopt;
}

std::string Exposition::SeriesString(const Sample& s) const {
  std::string out(MetricName(s));
  if (s.label_count == 0) return out;
  out += '{';
  bool first = true;
  for (const Label& l : LabelsOf(s)) {
    if (!first) out += ',';
    first = false;
    out += Name(l.name);
    out += "=\"";
    EscapeLabelValue(out, l.value);
    out += '"';
  }
  out += '}';
  return out;
}

std::span<const std::uint32_t> Exposition::SamplesOf(std::string_view metric) const {
  std::uint32_t id = names_.Find(metric);
  if (id == NameTable::kNotFound || id + 1 >= by_metric_offsets_.size()) return {};
  return std::span<const std::uint32_t>(by_metric_)
      .subspan(by_metric_offsets_[id], by_metric_offsets_[id + 1] - by_metric_offsets_[id]);
}

std::span<const std::uint32_t> Exposition::Find(std::string_view metric, std::string_view label,
                                                std::string_view value) const {
  std::uint32_t metric_id = names_.Find(metric);
  std::uint32_t label_id = names_.Find(label);
  if (metric_id == NameTable::kNotFound || label_id == NameTable::kNotFound) return {};
  const std::uint64_t key = (static_cast<std::uint64_t>(metric_id) << 32) | label_id;
  std::lock_guard<std::mutex> lock(lazy_->mu);
  auto it = lazy_->by_label.find(key);
  if (it == lazy_->by_label.end()) {
    std::unordered_map<std::string_view, std::vector<std::uint32_t>> index;
    for (std::uint32_t i : SamplesOf(metric)) {
      for (const Label& l : LabelsOf(samples_[i])) {
        if (l.name == label_id) {
          index[l.value].push_back(i);
          break;
        }
      }
    }
    it = lazy_->by_label.emplace(key, std::move(index)).first;
  }
  auto hit = it->second.find(value);
  if (hit == it->second.end()) return {};
  return hit->second;
}

const Family* Exposition::FamilyOf(std::string_view metric) const {
  auto lookup = [&](std::string_view name) -> const Family* {
    std::uint32_t id = names_.Find(name);
    if (id == NameTable::kNotFound || id >= family_by_name_.size() || family_by_name_[id] < 0) {
      return nullptr;
    }
    return &families_[static_cast<std::size_t>(family_by_name_[id])];
  };
  if (const Family* f = lookup(metric)) return f;
  for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
    if (metric.size() > suffix.size() && metric.substr(metric.size() - suffix.size()) == suffix) {
      const Family* f = lookup(metric.substr(0, metric.size() - suffix.size()));
      if (f != nullptr && (f->type == MetricType::kHistogram ||
                           (f->type == MetricType::kSummary && suffix != "_bucket"))) {
        return f;
      }
    }
  }
  return nullptr;
}

}  // namespace rocewatch::lint::observe
