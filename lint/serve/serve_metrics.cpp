#include "lint/serve/serve_metrics.h"

#include <stdexcept>

namespace rocewatch::lint::serve {

std::span<const ServeMetricSpec* const> ServeMetricSpecs() {
  static constexpr const ServeMetricSpec* kAll[] = {
      &kFinding,     &kFindings,           &kNodes,          &kRunSuccess,         &kRunDuration,
      &kLastRun,     &kRuns,               &kPlanReload,     &kPushSuccess,        &kPushFailures,
      &kPendingResolutions, &kResolutionsDropped, &kAlertsNotSent, &kFindingsOverLimit, &kBuildInfo,
  };
  return kAll;
}

prometheus::MetricFamily MakeFamily(const ServeMetricSpec& spec) {
  prometheus::MetricFamily f;
  f.name = std::string(spec.name);
  f.help = std::string(spec.help);
  f.type = spec.type;
  return f;
}

void AddSample(prometheus::MetricFamily& family, const ServeMetricSpec& spec,
               const std::vector<std::string>& values, double value) {
  if (values.size() != spec.labels.size() || family.name != spec.name)
    throw std::logic_error("roce-lint serve: a sample of " + family.name + " does not fit the spec of " +
                           std::string(spec.name));
  prometheus::ClientMetric m;
  for (std::size_t i = 0; i < values.size(); ++i) m.label.push_back({std::string(spec.labels[i]), values[i]});
  if (spec.type == prometheus::MetricType::Counter) m.counter.value = value;
  else m.gauge.value = value;
  family.metric.push_back(std::move(m));
}

}  // namespace rocewatch::lint::serve
