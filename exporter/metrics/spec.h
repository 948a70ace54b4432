#pragma once

// A metric family as the exporter declares it: one table of these per collector
// (STYLE.md: the name is typed once), read by the renderers, the --help output
// and the catalogue test that keeps docs/metrics.md true.

#include <string_view>
#include <vector>

namespace rocewatch::metrics {

enum class MetricType { kGauge, kCounter };

// Which of a family's series the exporter serves by default (docs/metrics.md "Default and
// opt-in series"); the rest come with the flag its spec's `detail` names.
enum class Served {
  kDefault,  // every series
  kTrimmed,  // the entries that checks, rules and panels read
  kOptIn,    // none
  kRepeat,   // none while another family serves the same value for the NIC
};

struct MetricSpec {
  std::string_view name;
  MetricType type;
  std::string_view help;  // one line, no backslashes: prometheus-cpp 1.0 does not escape HELP
  std::vector<std::string_view> labels;
  Served served = Served::kDefault;
  std::string_view detail = {};  // unless kDefault: the flag that serves the rest, and what it adds
};

// A collector's table of specs, as its renderer file lists it.
using SpecList = std::vector<const MetricSpec*>;

// "counter" or "gauge", as the TYPE line and the catalogue write it.
inline std::string_view TypeName(MetricType type) {
  return type == MetricType::kCounter ? "counter" : "gauge";
}

// "default", "trimmed", "opt-in" or "repeat", as docs/metrics.md writes it.
inline std::string_view ServedName(Served served) {
  switch (served) {
    case Served::kDefault: return "default";
    case Served::kTrimmed: return "trimmed";
    case Served::kOptIn: return "opt-in";
    case Served::kRepeat: return "repeat";
  }
  return "default";
}

}  // namespace rocewatch::metrics
