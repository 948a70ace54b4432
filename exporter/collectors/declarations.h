#pragma once

// What every collectors/<name>/collector.h declares against: a collector is its
// section of the NodeSnapshot (section.h), its source (source.h), its metric
// table and renderer (metrics.cpp) and its registration (collector.cpp), listed
// once in collectors/all.h.

#include "exporter/metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace collectors {
struct CollectorInfo;
}
namespace metrics {
class MetricSink;
}
}  // namespace rocewatch
