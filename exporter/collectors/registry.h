#pragma once

// The registry: every collector, built from collectors/all.h: each listed
// collector's Info() gives its name, --[no-]collector.<name> flag and options,
// its source factory, renderer and spec table; its success/duration series and
// its catalogue entries follow from it.

#include <memory>
#include <string_view>
#include <vector>

#include "exporter/collectors/render_input.h"
#include "exporter/collectors/source.h"
#include "exporter/metrics/spec.h"

namespace rocewatch::metrics {
class MetricSink;
}

namespace rocewatch::collectors {

struct CollectorOption {
  std::string_view name;  // flag --collector.<collector>.<name>
  std::string_view default_value;
  std::string_view help;
  // The value `roce_exporter capture` reads with, whatever the flags say (empty: the flag's):
  // set for the options that decide what is read, so a capture keeps everything the node has.
  std::string_view capture_value = {};
};

struct CollectorInfo {
  std::string_view name;
  std::string_view help;
  bool enabled_by_default;
  std::vector<CollectorOption> options;
  Result<std::unique_ptr<Source>> (*make)(const SourceEnv&);
  void (*render)(const NodeSnapshot&, metrics::MetricSink&);
  const metrics::SpecList& (*specs)();
  // Set when `render` reads only the collector's own section (exporter/collectors/render_input.h).
  RenderInput render_input{};
};

const std::vector<CollectorInfo>& AllCollectors();
const CollectorInfo* FindCollector(std::string_view name);

}  // namespace rocewatch::collectors
