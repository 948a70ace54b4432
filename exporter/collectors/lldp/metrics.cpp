#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

#include "exporter/collectors/lldp/collector.h"
#include "exporter/metrics/label_value.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/metrics/settings_digest.h"
#include "exporter/model/snapshot.h"
#include "exporter/netlink/dcbnl.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
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

// The switch port's IEEE 802.1Qaz settings as the netdev received them (lldp/dcbx.h).
const MetricSpec kPeerDcbxSent{
    "roce_lldp_peer_dcbx_sent",
    T::kGauge,
    "1 when the LLDP neighbour (the switch port) sends IEEE 802.1Qaz DCBX TLVs, 0 when it sends "
    "none (DCBX off on the port, or a switch without it).",
    {"netdev"}};
const MetricSpec kPeerDcbxInfo{
    "roce_lldp_peer_dcbx_info",
    T::kGauge,
    "A DCBX TLV the switch port sends (ets_configuration, ets_recommendation, pfc, app) and its "
    "willing bit where it has one; always 1.",
    {"netdev", "tlv", "willing"}};
const MetricSpec kPeerPfcEnabled{
    "roce_lldp_peer_pfc_enabled",
    T::kGauge,
    "1 for a priority the switch port enables PFC on (its DCBX PFC TLV); by default only enabled "
    "priorities, all eight (0 or 1) with --collector.lldp.full-tables.",
    {"netdev", "priority"}};
const MetricSpec kPeerPfcCapability{
    "roce_lldp_peer_pfc_capability",
    T::kGauge,
    "How many priorities the switch port can have PFC on at once (DCBX PFC TLV PFC cap).",
    {"netdev"}};
const MetricSpec kPeerTable{
    "roce_lldp_peer_table_entries",
    T::kGauge,
    "Entries of a DCBX table the switch port sends (dscp_map, app, ets, ets_recommendation), with "
    "its digest; dscp_map's digest equals roce_dcb_table_entries' for an equal map.",
    {"netdev", "table", "digest"}};
const MetricSpec kPeerApp{
    "roce_lldp_peer_app_info",
    T::kGauge,
    "An APP entry the switch port sends (selector dscp, ethertype, stream, dgram, any); by default "
    "only UDP 4791 (RoCEv2), every entry with --collector.lldp.full-tables; always 1.",
    {"netdev", "selector", "protocol", "priority"}};
const MetricSpec kPeerDscpPriority{"roce_lldp_peer_dscp_priority",
                                   T::kGauge,
                                   "The priority the switch port's APP table maps a DSCP to (the "
                                   "first one when several): the DSCPs of "
                                   "--collector.lldp.dscps (26, 48), all with "
                                   "--collector.lldp.full-tables.",
                                   {"netdev", "dscp"}};
const MetricSpec kPeerPriorityTc{"roce_lldp_peer_ets_priority_traffic_class",
                                 T::kGauge,
                                 "The traffic class the switch port's ETS configuration maps a "
                                 "priority to; with --collector.lldp.full-tables.",
                                 {"netdev", "priority"}};
const MetricSpec kPeerTcBandwidth{
    "roce_lldp_peer_ets_tc_bandwidth_ratio",
    T::kGauge,
    "The bandwidth share of a traffic class in the switch port's ETS configuration (percent / "
    "100); with --collector.lldp.full-tables.",
    {"netdev", "tc"}};
const MetricSpec kPeerTcTsa{"roce_lldp_peer_ets_tc_tsa_info",
                            T::kGauge,
                            "The transmission selection algorithm of a traffic class in the switch "
                            "port's ETS configuration (strict, cbs, ets, vendor, unknown); with "
                            "--collector.lldp.full-tables; always 1.",
                            {"netdev", "tc", "tsa"}};

constexpr std::uint16_t kRoceV2UdpPort = 4791;

struct DscpMapEntry {
  std::uint32_t priority = 0;
  bool ambiguous = false;
};

// The DSCP -> priority map of APP entries of selector DSCP, by DSCP: the first priority an
// entry gives a DSCP, ambiguous when another entry gives it another (as dcb's dscp_map).
std::map<std::uint32_t, DscpMapEntry> DscpMap(const std::vector<lldp::DcbxAppEntry>& app) {
  std::map<std::uint32_t, DscpMapEntry> out;
  for (const auto& e : app) {
    if (e.selector != lldp::kSelectorDscp || e.protocol > 63) continue;
    auto [it, inserted] = out.try_emplace(e.protocol, DscpMapEntry{e.priority, false});
    if (!inserted && it->second.priority != e.priority) it->second.ambiguous = true;
  }
  return out;
}

void AddEtsDigest(MetricSink& out, const std::string& n, std::string_view table,
                  const lldp::DcbxEts& e) {
  SettingsDigest d;
  for (int i = 0; i < 8; ++i)
    d.Add(static_cast<double>(e.priority_tc[i]))
        .Add(static_cast<double>(e.tc_bandwidth_percent[i]))
        .Add(static_cast<double>(e.tc_tsa[i]));
  out.Add(kPeerTable, {n, table, d.Hex()}, 8);
}

void RenderPeerDcbx(const std::string& n, const lldp::PeerDcbx& d, bool full,
                    const std::vector<std::uint32_t>& dscps, MetricSink& out) {
  out.Add(kPeerDcbxSent, {n}, d.sent ? 1 : 0);
  if (!d.sent) return;
  auto willing = [](bool w) { return w ? "true" : "false"; };
  if (d.ets_configuration)
    out.Add(kPeerDcbxInfo, {n, "ets_configuration", willing(d.ets_configuration->willing)}, 1);
  if (d.ets_recommendation) out.Add(kPeerDcbxInfo, {n, "ets_recommendation", ""}, 1);
  if (d.pfc) out.Add(kPeerDcbxInfo, {n, "pfc", willing(d.pfc->willing)}, 1);
  if (d.app) out.Add(kPeerDcbxInfo, {n, "app", ""}, 1);
  if (d.pfc) {
    for (int p = 0; p < 8; ++p) {
      const bool on = (d.pfc->enabled_bitmap >> p) & 1;
      if (on || full) out.Add(kPeerPfcEnabled, {n, std::to_string(p)}, on ? 1 : 0);
    }
    out.Add(kPeerPfcCapability, {n}, d.pfc->capability);
  }
  if (d.app) {
    const auto dscp_map = DscpMap(*d.app);
    if (!dscp_map.empty()) {
      SettingsDigest dig;  // the canonical form of dcb's dscp_map digest
      for (const auto& [dscp, m] : dscp_map)
        dig.Add(static_cast<double>(dscp))
            .Add(static_cast<double>(m.priority))
            .Add(m.ambiguous ? 1 : 0);
      out.Add(kPeerTable, {n, "dscp_map", dig.Hex()}, static_cast<double>(dscp_map.size()));
    }
    SettingsDigest other;
    std::size_t others = 0;
    for (const auto& e : *d.app) {
      if (e.selector == lldp::kSelectorDscp) continue;
      other.Add(dcbnl::SelectorName(e.selector))
          .Add(static_cast<double>(e.protocol))
          .Add(static_cast<double>(e.priority));
      ++others;
    }
    if (others > 0) out.Add(kPeerTable, {n, "app", other.Hex()}, static_cast<double>(others));
    std::set<std::tuple<std::uint8_t, std::uint16_t, std::uint8_t>> seen;
    for (const auto& e : *d.app) {
      const bool roce = (e.selector == lldp::kSelectorUdpDccpPort ||
                         e.selector == lldp::kSelectorTcpSctpUdpDccpPort) &&
                        e.protocol == kRoceV2UdpPort;
      if (!(roce || full) || !seen.insert({e.selector, e.protocol, e.priority}).second) continue;
      out.Add(kPeerApp,
              {n, dcbnl::SelectorName(e.selector), std::to_string(e.protocol),
               std::to_string(e.priority)},
              1);
    }
    for (const auto& [dscp, m] : dscp_map) {
      if (full || std::find(dscps.begin(), dscps.end(), dscp) != dscps.end())
        out.Add(kPeerDscpPriority, {n, std::to_string(dscp)}, m.priority);
    }
  }
  if (d.ets_configuration) {
    AddEtsDigest(out, n, "ets", *d.ets_configuration);
    if (full) {
      const auto& e = *d.ets_configuration;
      for (int i = 0; i < 8; ++i) {
        const std::string k = std::to_string(i);
        out.Add(kPeerPriorityTc, {n, k}, e.priority_tc[i]);
        out.Add(kPeerTcBandwidth, {n, k}, e.tc_bandwidth_percent[i] / 100.0);
        out.Add(kPeerTcTsa, {n, k, dcbnl::TsaName(e.tc_tsa[i])}, 1);
      }
    }
  }
  if (d.ets_recommendation) AddEtsDigest(out, n, "ets_recommendation", *d.ets_recommendation);
}

}  // namespace

const SpecList& LldpSpecs() {
  static const SpecList kSpecs = {&kReachable,
                                  &kInfo,
                                  &kTtl,
                                  &kAge,
                                  &kPeerDcbxSent,
                                  &kPeerDcbxInfo,
                                  &kPeerPfcEnabled,
                                  &kPeerPfcCapability,
                                  &kPeerTable,
                                  &kPeerApp,
                                  &kPeerDscpPriority,
                                  &kPeerPriorityTc,
                                  &kPeerTcBandwidth,
                                  &kPeerTcTsa};
  return kSpecs;
}

void RenderLldp(const NodeSnapshot& snap, MetricSink& out) {
  if (!snap.lldp) return;
  out.Add(kReachable, {}, snap.lldp->daemon_reachable ? 1 : 0);
  for (const auto& n : snap.lldp->neighbors) {
    // Every text but the netdev (ours) is the switch's: control characters replaced.
    const std::string chassis = RemoteTextLabelValue(n.chassis_id);
    const std::string port = RemoteTextLabelValue(n.port_id);
    out.Add(kInfo,
            {n.netdev, chassis, RemoteTextLabelValue(n.chassis_id_subtype),
             RemoteTextLabelValue(n.system_name), port, RemoteTextLabelValue(n.port_id_subtype),
             RemoteTextLabelValue(n.port_description), RemoteTextLabelValue(n.management_address)},
            1);
    if (n.ttl_seconds) out.Add(kTtl, {n.netdev, chassis, port}, *n.ttl_seconds);
    if (n.age_seconds) out.Add(kAge, {n.netdev, chassis, port}, *n.age_seconds);
  }
  // The peer's DCBX per netdev: of its first neighbour (a RoCE port has one switch port).
  std::set<std::string> done;
  for (const auto& n : snap.lldp->neighbors) {
    if (done.insert(n.netdev).second) RenderPeerDcbx(n.netdev, n.dcbx, snap.lldp->full_tables, snap.lldp->exported_dscps, out);
  }
}

}  // namespace rocewatch::collectors
