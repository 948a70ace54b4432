#include <string>

#include "exporter/collectors/verbs/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;

const MetricSpec kActiveMtu{"roce_port_active_mtu_bytes", T::kGauge,
    "Active MTU of the port from ibv_query_port (RoCE: the netdev MTU rounded down to an IB "
    "MTU, at most 4096).",
    {"device", "port"}};
const MetricSpec kMaxMtu{"roce_port_max_mtu_bytes", T::kGauge,
    "Largest MTU the port supports, from ibv_query_port.", {"device", "port"}};
const MetricSpec kGidTable{"roce_port_gid_table_size", T::kGauge,
    "Number of entries of the port's GID table, from ibv_query_port.", {"device", "port"}};
const MetricSpec kActiveSpeed{"roce_port_active_speed_bytes_per_second", T::kGauge,
    "Active link speed from ibv_query_port: lanes (active_width) times the per-lane rate "
    "(active_speed), in bytes per second.",
    {"device", "port"}};

}  // namespace

const SpecList& VerbsSpecs() {
  static const SpecList kSpecs = {&kActiveMtu, &kMaxMtu, &kGidTable, &kActiveSpeed};
  return kSpecs;
}

void RenderVerbs(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& v : snap.verbs) {
    const std::string port = std::to_string(v.port);
    if (v.active_mtu_bytes) out.Add(kActiveMtu, {v.device, port}, *v.active_mtu_bytes);
    if (v.max_mtu_bytes) out.Add(kMaxMtu, {v.device, port}, *v.max_mtu_bytes);
    if (v.gid_table_length) out.Add(kGidTable, {v.device, port}, *v.gid_table_length);
    if (v.active_speed_bytes_per_second) {
      out.Add(kActiveSpeed, {v.device, port}, *v.active_speed_bytes_per_second);
    }
  }
}

}  // namespace rocewatch::collectors
