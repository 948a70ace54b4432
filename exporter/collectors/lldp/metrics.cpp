#include "collectors/lldp/collector.h"
#include "metrics/metric_sink.h"
#include "model/snapshot.h"

namespace rocewatch::metrics {
namespace {

using T = MetricType;

const MetricSpec kReachable{"roce_lldp_daemon_reachable", T::kGauge,
    "1 when lldpd answered the last read of its neighbours, 0 when no lldpd listens or its socket is not readable.",
    {}};
const MetricSpec kInfo{"roce_lldp_neighbor_info", T::kGauge,
    "The LLDP neighbour lldpd holds for a netdev: the switch (system name, chassis ID) and its port; always 1.",
    {"netdev", "chassis_id", "chassis_id_subtype", "system_name", "port_id", "port_id_subtype",
     "port_description", "management_address"}};
const MetricSpec kTtl{"roce_lldp_neighbor_ttl_seconds", T::kGauge,
    "The Time To Live the neighbour advertised: how long lldpd keeps its information without a new LLDPDU.",
    {"netdev", "chassis_id", "port_id"}};
const MetricSpec kAge{"roce_lldp_neighbor_age_seconds", T::kGauge,
    "Seconds since lldpd last saw the neighbour's information change, as of the last read (lldpcli's age).",
    {"netdev", "chassis_id", "port_id"}};

}  // namespace

const SpecList& LldpSpecs() {
  static const SpecList kSpecs = {&kReachable, &kInfo, &kTtl, &kAge};
  return kSpecs;
}

void RenderLldp(const NodeSnapshot& snap, MetricSink& out) {
  if (!snap.lldp) return;
  out.Add(kReachable, {}, snap.lldp->daemon_reachable ? 1 : 0);
  for (const auto& n : snap.lldp->neighbors) {
    out.Add(kInfo, {n.netdev, n.chassis_id, n.chassis_id_subtype, n.system_name, n.port_id,
                    n.port_id_subtype, n.port_description, n.management_address}, 1);
    if (n.ttl_seconds) out.Add(kTtl, {n.netdev, n.chassis_id, n.port_id}, *n.ttl_seconds);
    if (n.age_seconds) out.Add(kAge, {n.netdev, n.chassis_id, n.port_id}, *n.age_seconds);
  }
}

}  // namespace rocewatch::metrics
