#pragma once

// A metric family as the exporter declares it: one table of these per collector
// (STYLE.md: the name is typed once), read by the renderers, the --help output
// and the catalogue test that keeps docs/metrics.md true.

#include <string_view>
#include <vector>

namespace rocewatch::metrics {

enum class MetricType { kGauge, kCounter };

struct MetricSpec {
  std::string_view name;
  MetricType type;
  std::string_view help;  // one line, no backslashes: prometheus-cpp 1.0 does not escape HELP
  std::vector<std::string_view> labels;
};

// A collector's table of specs, as its renderer file lists it.
using SpecList = std::vector<const MetricSpec*>;

// "counter" or "gauge", as the TYPE line and the catalogue write it.
inline std::string_view TypeName(MetricType type) {
  return type == MetricType::kCounter ? "counter" : "gauge";
}

}  // namespace rocewatch::metrics
