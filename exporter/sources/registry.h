#pragma once

// The list of sources (collectors). Adding one is one new source file, one
// metrics file and one line in registry.cpp: its --[no-]collector.<name> flag,
// its options, its success/duration series and its catalogue entries follow.

#include <memory>
#include <string_view>
#include <vector>

#include "metrics/metric_sink.h"
#include "metrics/renderers.h"
#include "sources/source.h"

namespace rocewatch::sources {

struct SourceOption {
  std::string_view name;  // flag --collector.<source>.<name>
  std::string_view default_value;
  std::string_view help;
};

struct SourceInfo {
  std::string_view name;
  std::string_view help;
  bool enabled_by_default;
  std::vector<SourceOption> options;
  Result<std::unique_ptr<Source>> (*make)(const SourceEnv&);
  void (*render)(const NodeSnapshot&, metrics::MetricSink&);
  const metrics::SpecList& (*specs)();
};

const std::vector<SourceInfo>& AllSources();
const SourceInfo* FindSource(std::string_view name);

}  // namespace rocewatch::sources
