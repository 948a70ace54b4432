#include <string>

#include "metrics/renderers.h"

namespace rocewatch::metrics {
namespace {

using T = MetricType;

const MetricSpec kEnabled{"roce_ecn_enabled", T::kGauge,
    "1 when ECN (DCQCN) is enabled for the priority at the notification point (np) or reaction "
    "point (rp), else 0.",
    {"netdev", "point", "priority"}};
const MetricSpec kParameter{"roce_dcqcn_parameter", T::kGauge,
    "A DCQCN parameter as the kernel holds it, named as in MLNX_OFED sysfs; source is sysfs or "
    "debugfs.",
    {"netdev", "point", "parameter", "source"}};

const char* const kPriorities[] = {"0", "1", "2", "3", "4", "5", "6", "7"};

}  // namespace

const SpecList& EcnSpecs() {
  static const SpecList kSpecs = {&kEnabled, &kParameter};
  return kSpecs;
}

void RenderEcn(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& e : snap.ecn) {
    for (int p = 0; p < 8; ++p) {
      if (e.np_enabled[p]) out.Add(kEnabled, {e.netdev, "np", kPriorities[p]}, *e.np_enabled[p] ? 1 : 0);
    }
    for (int p = 0; p < 8; ++p) {
      if (e.rp_enabled[p]) out.Add(kEnabled, {e.netdev, "rp", kPriorities[p]}, *e.rp_enabled[p] ? 1 : 0);
    }
    for (const auto& param : e.parameters) {
      out.Add(kParameter, {e.netdev, param.point, param.name, param.source}, param.value);
    }
  }
}

}  // namespace rocewatch::metrics
