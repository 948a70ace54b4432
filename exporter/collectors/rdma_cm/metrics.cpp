#include <string>

#include "exporter/collectors/rdma_cm/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;

const MetricSpec kMode{"roce_cm_default_roce_mode_info", T::kGauge,
    "rdma_cm default RoCE mode of the port from configfs (RoCE v2 or IB/RoCE v1); always 1.",
    {"device", "port", "mode"}};
const MetricSpec kTos{"roce_cm_default_tos", T::kGauge,
    "rdma_cm default type of service of the port from configfs (DSCP << 2 | ECN bits; the DSCP "
    "is floor(roce_cm_default_tos / 4)).",
    {"device", "port"}};

}  // namespace

const SpecList& RdmaCmSpecs() {
  static const SpecList kSpecs = {&kMode, &kTos};
  return kSpecs;
}

void RenderRdmaCm(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& c : snap.rdma_cm) {
    const std::string port = std::to_string(c.port);
    if (!c.roce_mode.empty()) out.Add(kMode, {c.device, port, c.roce_mode}, 1);
    if (c.tos) out.Add(kTos, {c.device, port}, *c.tos);
  }
}

}  // namespace rocewatch::collectors
