#include "metrics/family_set.h"

#include "metrics/label_value.h"

namespace rocewatch::metrics {

std::string_view TypeName(MetricType type) {
  return type == MetricType::kCounter ? "counter" : "gauge";
}

void FamilySet::Add(const MetricSpec& spec, std::initializer_list<std::string_view> label_values,
                    double value) {
  if (label_values.size() != spec.labels.size()) {
    ++malformed_;
    return;
  }
  auto [it, inserted] = index_.try_emplace(&spec, families_.size());
  if (inserted) {
    prometheus::MetricFamily family;
    family.name = std::string(spec.name);
    family.help = std::string(spec.help);
    family.type = spec.type == MetricType::kCounter ? prometheus::MetricType::Counter
                                                    : prometheus::MetricType::Gauge;
    families_.push_back(std::move(family));
  }
  prometheus::ClientMetric metric;
  metric.label.reserve(label_values.size());
  auto name = spec.labels.begin();
  for (std::string_view v : label_values) {
    // Valid UTF-8 always, as on the text path (metrics/label_value.h).
    metric.label.push_back(
        {std::string(*name++), IsValidLabelValue(v) ? std::string(v) : RepairLabelValue(v)});
  }
  if (spec.type == MetricType::kCounter) {
    metric.counter.value = value;
  } else {
    metric.gauge.value = value;
  }
  families_[it->second].metric.push_back(std::move(metric));
}

std::vector<prometheus::MetricFamily> FamilySet::Take() && { return std::move(families_); }

}  // namespace rocewatch::metrics
