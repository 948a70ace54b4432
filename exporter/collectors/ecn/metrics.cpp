#include <array>
#include <optional>
#include <string>

#include "exporter/collectors/ecn/collector.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;

const MetricSpec kEnabled{"roce_ecn_enabled", T::kGauge,
    "1 when ECN (DCQCN) is enabled for the priority at the notification point (np) or reaction "
    "point (rp), else 0; by default only priorities with ECN or PFC on (all eight when none is). "
    "priority=\"all\" where the driver has one switch for every priority (bnxt_re's configfs "
    "cc/ecn_enable).",
    {"netdev", "point", "priority"},
    S::kTrimmed, "--collector.ecn.all-priorities"};
const MetricSpec kParameter{"roce_dcqcn_parameter", T::kGauge,
    "A DCQCN parameter as the kernel holds it, named as in MLNX_OFED sysfs; source is sysfs, "
    "debugfs or configfs (bnxt_re's cc group) (by default a debugfs copy equal to the sysfs "
    "value is not repeated).",
    {"netdev", "point", "parameter", "source"},
    S::kTrimmed, "--collector.ecn.all-sources"};

const char* const kPriorities[] = {"0", "1", "2", "3", "4", "5", "6", "7"};

}  // namespace

const SpecList& EcnSpecs() {
  static const SpecList kSpecs = {&kEnabled, &kParameter};
  return kSpecs;
}

namespace {

using Enabled = std::array<std::optional<bool>, 8>;

// The priorities whose ECN enable is exported by default: those with ECN on at either
// point or PFC on (the lossless ones, where "off" is the finding); all eight when that
// leaves none, so a node with ECN off everywhere still says so.
std::array<bool, 8> ShownPriorities(const NodeSnapshot& snap, const EcnSnapshot& e) {
  std::array<bool, 8> shown{};
  if (e.all_priorities) {
    shown.fill(true);
    return shown;
  }
  bool any = false;
  for (int p = 0; p < 8; ++p) {
    shown[p] = e.np_enabled[p].value_or(false) || e.rp_enabled[p].value_or(false);
  }
  for (const auto& d : snap.dcb) {
    if (d.netdev != e.netdev || !d.pfc_enabled) continue;
    for (int p = 0; p < 8; ++p) shown[p] = shown[p] || (*d.pfc_enabled)[p];
  }
  for (bool s : shown) any = any || s;
  if (!any) shown.fill(true);
  return shown;
}

// A debugfs parameter that repeats the sysfs one of the same point and name with the
// same value (MLNX_OFED and upstream mlx5 both expose it): served once, from sysfs.
bool RepeatsSysfs(const EcnSnapshot& e, const EcnSnapshot::Parameter& param) {
  if (param.source != "debugfs") return false;
  for (const auto& other : e.parameters) {
    if (other.source == "sysfs" && other.point == param.point && other.name == param.name &&
        other.value == param.value)
      return true;
  }
  return false;
}

void AddEnabled(MetricSink& out, const EcnSnapshot& e, const std::array<bool, 8>& shown,
                const char* point, const Enabled& enabled) {
  for (int p = 0; p < 8; ++p) {
    if (enabled[p] && shown[p]) out.Add(kEnabled, {e.netdev, point, kPriorities[p]}, *enabled[p] ? 1 : 0);
  }
}

}  // namespace

void RenderEcn(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& e : snap.ecn) {
    const auto shown = ShownPriorities(snap, e);
    AddEnabled(out, e, shown, "np", e.np_enabled);
    AddEnabled(out, e, shown, "rp", e.rp_enabled);
    if (e.all_enabled) {
      for (const char* point : {"np", "rp"}) out.Add(kEnabled, {e.netdev, point, "all"}, *e.all_enabled ? 1 : 0);
    }
    for (const auto& param : e.parameters) {
      if (!e.all_sources && RepeatsSysfs(e, param)) continue;
      out.Add(kParameter, {e.netdev, param.point, param.name, param.source}, param.value);
    }
  }
}

}  // namespace rocewatch::collectors
