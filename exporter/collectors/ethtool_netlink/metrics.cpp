#include "exporter/collectors/ethtool_netlink/collector.h"
#include "exporter/drivers/driver.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;

const MetricSpec kLink{"roce_link_detected", T::kGauge,
    "1 when ethtool netlink reports the link up, 0 when down. Left out while "
    "roce_netdev_carrier serves the netdev and its driver's link state is that carrier "
    "(ethtool_op_get_link: mlx5, ice, ionic), unless --collector.ethtool_netlink.repeats.",
    {"netdev"},
    S::kRepeat, "--collector.ethtool_netlink.repeats (left out while roce_netdev_carrier "
    "serves the same value: drivers whose get_link is the carrier)"};
const MetricSpec kDownReason{"roce_link_down_reason_info", T::kGauge,
    "Why the link is down as the driver reports it (ethtool link ext_state and ext_substate), "
    "present while it reports one; always 1.",
    {"netdev", "reason", "detail"}};
const MetricSpec kDownEvents{"roce_link_down_events_total", T::kCounter,
    "Times the link went down, as ethtool netlink counts them (kernels after 6.1); while "
    "roce_ethtool_link_down_events_total serves the same driver counter, only with "
    "--collector.ethtool_netlink.repeats.",
    {"netdev"},
    S::kRepeat, "--collector.ethtool_netlink.repeats (left out while "
    "roce_ethtool_link_down_events_total serves it)"};
const MetricSpec kSqi{"roce_link_sqi", T::kGauge, "Signal quality index of the link (some PHYs).",
    {"netdev"}};
const MetricSpec kSqiMax{"roce_link_sqi_max", T::kGauge,
    "Highest signal quality index the PHY reports.", {"netdev"}};
const MetricSpec kPauseAutoneg{"roce_pause_autoneg", T::kGauge,
    "1 when 802.3x global pause is autonegotiated, else 0.", {"netdev"}};
const MetricSpec kPauseRx{"roce_pause_rx_enabled", T::kGauge,
    "1 when the port honours received 802.3x global pause frames (should be 0 with PFC).",
    {"netdev"}};
const MetricSpec kPauseTx{"roce_pause_tx_enabled", T::kGauge,
    "1 when the port sends 802.3x global pause frames (should be 0 with PFC).", {"netdev"}};
const MetricSpec kPauseFrames{"roce_pause_frames_total", T::kCounter,
    "802.3x global pause frames received (rx) and sent (tx), from ethtool netlink pause statistics.",
    {"netdev", "direction"}};

}  // namespace

const SpecList& LinkStateSpecs() {
  static const SpecList kSpecs = {&kLink,         &kDownReason, &kDownEvents,
                                  &kSqi,          &kSqiMax,     &kPauseAutoneg,
                                  &kPauseRx,      &kPauseTx,    &kPauseFrames};
  return kSpecs;
}

namespace {

// Whether the ethtool collector serves the link-down count of `netdev`: the driver's
// link_down_events_phy, which mlx5 reads from the same PPCNT counter as the netlink
// ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT.
bool EthtoolHasLinkDowns(const NodeSnapshot& snap, const std::string& netdev) {
  for (const auto& e : snap.ethtool) {
    if (e.netdev != netdev) continue;
    for (const auto& p : e.port)
      if (p.spec != nullptr && p.spec->kind == "link_down_events") return true;
  }
  return false;
}

// Whether ethtool netlink's link state of `netdev` repeats its sysfs carrier: its driver's
// get_link is the carrier (exporter/drivers/) and the netdev collector serves that carrier.
bool CarrierRepeatsLink(const NodeSnapshot& snap, const std::string& netdev) {
  const drivers::Driver* driver = nullptr;
  for (const auto& e : snap.ethtool)
    if (e.netdev == netdev) driver = drivers::FindByNetdevDriver(e.driver);
  if (driver == nullptr || driver->link_is_carrier.empty()) return false;
  for (const auto& nd : snap.netdevs)
    if (nd.name == netdev && nd.carrier) return true;
  return false;
}

}  // namespace

void RenderLinkState(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& l : snap.link_state) {
    const std::string& n = l.netdev;
    if (l.link && (l.repeats || !CarrierRepeatsLink(snap, n))) out.Add(kLink, {n}, *l.link ? 1 : 0);
    if (!l.ext_state.empty()) out.Add(kDownReason, {n, l.ext_state, l.ext_substate}, 1);
    if (l.link_down_events && (l.repeats || !EthtoolHasLinkDowns(snap, n))) out.Add(kDownEvents, {n}, *l.link_down_events);
    if (l.sqi) out.Add(kSqi, {n}, *l.sqi);
    if (l.sqi_max) out.Add(kSqiMax, {n}, *l.sqi_max);
    if (l.pause_autoneg) out.Add(kPauseAutoneg, {n}, *l.pause_autoneg ? 1 : 0);
    if (l.pause_rx) out.Add(kPauseRx, {n}, *l.pause_rx ? 1 : 0);
    if (l.pause_tx) out.Add(kPauseTx, {n}, *l.pause_tx ? 1 : 0);
    if (l.pause_rx_frames) out.Add(kPauseFrames, {n, "rx"}, *l.pause_rx_frames);
    if (l.pause_tx_frames) out.Add(kPauseFrames, {n, "tx"}, *l.pause_tx_frames);
  }
}

}  // namespace rocewatch::collectors
