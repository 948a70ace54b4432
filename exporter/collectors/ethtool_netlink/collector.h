#pragma once

// The ethtool_netlink collector (collectors/declarations.h says what its files hold).

#include "exporter/collectors/declarations.h"
#include "exporter/collectors/ethtool_netlink/section.h"

namespace rocewatch {
namespace collectors {
void RenderLinkState(const NodeSnapshot& snap, metrics::MetricSink& out);
const metrics::SpecList& LinkStateSpecs();

struct EthtoolNetlink {
  using Section = LinkStateSection;
  static CollectorInfo Info();
};
}  // namespace collectors
}  // namespace rocewatch
