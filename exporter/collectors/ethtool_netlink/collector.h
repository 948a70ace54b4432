#pragma once

// The ethtool_netlink collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/ethtool_netlink/section.h"

namespace rocewatch {
namespace metrics {
void RenderLinkState(const NodeSnapshot& snap, MetricSink& out);
const SpecList& LinkStateSpecs();
}  // namespace metrics

namespace collectors {
struct EthtoolNetlink {
  using Section = LinkStateSection;
  static collectors::CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
