#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::metrics {

// Counters the collection loop keeps about itself.
struct CollectorStats {
  double collections_total = 0;     // collection passes run
  double coalesced_total = 0;       // scrapes served by a pass another scrape started
  double discoveries_total = 0;     // inventory walks
  double open_attributes = 0;       // descriptors held open
  double attribute_budget = 0;      // descriptors we may hold
  // Per tree (sysfs, configfs, debugfs, kernel: a replay's answers), paths refused since start
  // because they lead out of their root or are not plain files (fs/beneath.h).
  std::vector<std::pair<std::string, double>> refused_paths;
};

// The exporter's own series: build info, per-collector success, duration,
// parse errors, unavailable values and vanished devices, and the loop's stats.
void RenderExporter(const NodeSnapshot& snap, const CollectorStats& stats, MetricSink& out);
const SpecList& ExporterSpecs();

}  // namespace rocewatch::metrics
