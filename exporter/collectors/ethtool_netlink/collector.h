#pragma once

// The ethtool_netlink collector: its section of the NodeSnapshot (section.h), its source
// (source.h), its metric table and renderer (metrics.cpp), and its registration
// (collector.cpp; listed once in collectors/all.h).

#include "collectors/ethtool_netlink/section.h"
#include "metrics/spec.h"

namespace rocewatch {
struct NodeSnapshot;
namespace sources {
struct SourceInfo;
}
namespace metrics {
class MetricSink;
void RenderLinkState(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LinkStateSpecs();
}  // namespace metrics

namespace collectors {
struct EthtoolNetlink {
  using Section = LinkStateSection;
  static sources::SourceInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
