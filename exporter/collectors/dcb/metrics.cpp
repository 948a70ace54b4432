#include <algorithm>
#include <array>
#include <string>

#include "exporter/collectors/dcb/collector.h"
#include "exporter/collectors/dcb/shown.h"
#include "exporter/collectors/dcb/used_dscps.h"
#include "exporter/ethtool/classify.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/metrics/settings_digest.h"
#include "exporter/model/snapshot.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors {

using namespace metrics;  // the metric types a renderer is written in (exporter/metrics/)
namespace {

using T = MetricType;
using S = Served;

const MetricSpec kSupported{"roce_dcb_supported", T::kGauge,
    "1 when the netdev answers dcbnl (has DCB), 0 when it answers EOPNOTSUPP or is an SR-IOV VF "
    "(its DCB is its PF's; not asked).",
    {"netdev"}};
const MetricSpec kPfcEnabled{"roce_pfc_enabled", T::kGauge,
    "1 when priority flow control is enabled for the priority (ieee_pfc pfc_en), else 0.",
    {"netdev", "priority"},
    S::kTrimmed, "--collector.dcb.full-tables"};
const MetricSpec kPfcCapability{"roce_pfc_capability", T::kGauge,
    "How many priorities may have PFC enabled at once (ieee_pfc pfc_cap).", {"netdev"}};
const MetricSpec kDcbPfcFrames{"roce_dcb_pfc_pause_frames_total", T::kCounter,
    "PFC pause frames per priority as dcbnl reports them (requests sent as tx, indications "
    "received as rx).",
    {"netdev", "priority", "direction"},
    S::kTrimmed, "--collector.dcb.full-tables"};
const MetricSpec kPriorityTc{"roce_ets_priority_traffic_class", T::kGauge,
    "The traffic class a priority maps to (ieee_ets prio_tc).", {"netdev", "priority"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kTcBandwidth{"roce_ets_tc_bandwidth_ratio", T::kGauge,
    "ETS transmit bandwidth share of the traffic class (ieee_ets tc_tx_bw, percent / 100).",
    {"netdev", "tc"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kTcTsa{"roce_ets_tc_tsa_info", T::kGauge,
    "Transmission selection algorithm of the traffic class (strict, cbs, ets, vendor); always 1.",
    {"netdev", "tc", "tsa"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kTcMaxRate{"roce_ets_tc_max_rate_bytes_per_second", T::kGauge,
    "Rate limit of the traffic class in bytes per second (ieee_maxrate); 0 means no limit.",
    {"netdev", "tc"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kTrust{"roce_qos_trust_info", T::kGauge,
    "Trust mode: dscp when the APP table holds DSCP entries, else pcp; always 1.",
    {"netdev", "mode"}};
const MetricSpec kDscpPriority{"roce_dscp_priority", T::kGauge,
    "The priority the APP table maps a DSCP to (the first one when it maps it to several); by "
    "default only the DSCPs the node uses (rdma_cm ToS, CNP DSCP, --collector.dcb.dscps).",
    {"netdev", "dscp"},
    S::kTrimmed, "--collector.dcb.full-tables (more: dcb.dscps)"};
const MetricSpec kTable{"roce_dcb_table_entries", T::kGauge,
    "Entries of a dcbnl settings table (dscp_map, app, ets, buffer, dcbx), with the table's "
    "digest: equal tables have equal digests; the entries are series with "
    "--collector.dcb.full-tables.",
    {"netdev", "table", "digest"}};
const MetricSpec kDscpAmbiguous{"roce_dscp_priority_ambiguous", T::kGauge,
    "Present (1) for a DSCP the APP table maps to more than one priority.", {"netdev", "dscp"}};
const MetricSpec kApp{"roce_dcb_app_info", T::kGauge,
    "An APP table entry (selector dscp, ethertype, stream, dgram, any or pcp); always 1.",
    {"netdev", "selector", "protocol", "priority"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kPriorityBuffer{"roce_dcb_priority_buffer", T::kGauge,
    "The receive buffer a priority maps to (dcbnl_buffer prio2buffer).", {"netdev", "priority"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kBufferSize{"roce_dcb_buffer_size_bytes", T::kGauge,
    "Size of a receive buffer in bytes (dcbnl_buffer buffer_size).", {"netdev", "buffer"},
    S::kOptIn, "--collector.dcb.full-tables"};
const MetricSpec kBufferTotal{"roce_dcb_buffer_total_bytes", T::kGauge,
    "Total port receive buffer in bytes (dcbnl_buffer total_size).", {"netdev"}};
const MetricSpec kDcbxMode{"roce_dcbx_mode_info", T::kGauge,
    "A DCBX capability bit the driver reports (host, lld_managed, cee, ieee, static); always 1.",
    {"netdev", "mode"},
    S::kOptIn, "--collector.dcb.full-tables"};

}  // namespace

const SpecList& DcbSpecs() {
  static const SpecList kSpecs = {&kSupported,   &kPfcEnabled,    &kPfcCapability, &kDcbPfcFrames,
                                  &kPriorityTc,  &kTcBandwidth,   &kTcTsa,         &kTcMaxRate,
                                  &kTrust,       &kDscpPriority,  &kDscpAmbiguous, &kApp,
                                  &kPriorityBuffer, &kBufferSize, &kBufferTotal,   &kDcbxMode,
                                  &kTable};
  return kSpecs;
}

// The DSCPs whose priority is exported by default: those rdma_cm's default ToS of the
// netdev's device uses, the CNP DSCP its DCQCN notification point sends, and the list
// the operator gave (--collector.dcb.dscps, default the usual RoCE/CNP pair 26,48).
std::vector<std::uint32_t> UsedDscps(const NodeSnapshot& snap, const DcbSnapshot& d) {
  std::vector<std::uint32_t> out = d.exported_dscps;
  std::string device;
  for (const auto& nd : snap.netdevs)
    if (nd.name == d.netdev) device = nd.device;
  for (const auto& cm : snap.rdma_cm) {
    if (!device.empty() && cm.device == device && cm.tos && *cm.tos >= 0 && *cm.tos < 256)
      out.push_back(static_cast<std::uint32_t>(*cm.tos) >> 2);
  }
  for (const auto& e : snap.ecn) {
    if (e.netdev != d.netdev) continue;
    for (const auto& p : e.parameters)
      if (p.point == "np" && p.name == "cnp_dscp" && p.value >= 0 && p.value < 64)
        out.push_back(static_cast<std::uint32_t>(p.value));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// The priorities for which the ethtool source serves PFC pause frames of the netdev (mlx5:
// those with PFC on); dcbnl's ieee_pfc requests/indications are the same counters again.
std::array<bool, 8> EthtoolPfcFrames(const NodeSnapshot& snap, const std::string& netdev) {
  std::array<bool, 8> has{};
  for (const auto& e : snap.ethtool) {
    if (e.netdev != netdev) continue;
    for (const auto& v : e.per_priority)
      if (v.kind == ethtool::PriorityKind::kPauseFrames && v.priority < 8) has[v.priority] = true;
  }
  return has;
}

// Which priorities get dcbnl pause-frame series by default: all eight where ethtool serves
// none; otherwise those ethtool lacks (mlx5: PFC off) while they count pause frames, which
// is the fault RoCEPauseOnNonPFCPriority and counters.pause-on-non-pfc look for.
std::array<bool, 8> DcbFramesShown(const NodeSnapshot& snap, const DcbSnapshot& d) {
  std::array<bool, 8> shown{};
  if (!d.pfc_rx_pause_frames || !d.pfc_tx_pause_frames) return shown;
  const auto ethtool = EthtoolPfcFrames(snap, d.netdev);
  bool any_ethtool = false;
  for (bool e : ethtool) any_ethtool = any_ethtool || e;
  for (int p = 0; p < 8; ++p) {
    const bool counting = (*d.pfc_rx_pause_frames)[p] > 0 || (*d.pfc_tx_pause_frames)[p] > 0;
    shown[p] = d.full_tables || !any_ethtool || (!ethtool[p] && counting);
  }
  return shown;
}

// Which priorities get a roce_pfc_enabled series by default: those with PFC on, those that
// count pause frames here and those the node's DSCPs map to (so "off" is a series where it
// is the finding); all eight when PFC is on nowhere.
std::array<bool, 8> PfcShown(const NodeSnapshot& snap, const DcbSnapshot& d,
                             const std::array<bool, 8>& frames_shown,
                             const std::vector<std::uint32_t>& used_dscps) {
  std::array<bool, 8> shown{};
  if (!d.pfc_enabled) return shown;
  bool any = false;
  for (int p = 0; p < 8; ++p) {
    shown[p] = d.full_tables || (*d.pfc_enabled)[p] || frames_shown[p];
    any = any || (*d.pfc_enabled)[p];
  }
  for (const auto& e : snap.ethtool) {
    if (e.netdev != d.netdev) continue;
    for (const auto& v : e.per_priority)
      if (v.priority < 8 && v.value > 0 && ethtool::IsPfcPause(v.kind)) shown[v.priority] = true;
  }
  for (const auto& m : d.dscp_priority)
    if (m.priority < 8 && std::binary_search(used_dscps.begin(), used_dscps.end(), m.dscp)) shown[m.priority] = true;
  if (!any) shown.fill(true);
  return shown;
}

void AddTable(MetricSink& out, const std::string& netdev, std::string_view table,
              const SettingsDigest& digest, double entries) {
  out.Add(kTable, {netdev, table, digest.Hex()}, entries);
}

// The fingerprints of the tables whose entries are series only with full_tables.
void AddDigests(const DcbSettings& d, MetricSink& out) {
  const std::string& n = d.netdev;
  if (!d.dscp_priority.empty()) {
    SettingsDigest dig;
    for (const auto& m : d.dscp_priority) dig.Add(m.dscp).Add(m.priority).Add(m.ambiguous ? 1 : 0);
    AddTable(out, n, "dscp_map", dig, static_cast<double>(d.dscp_priority.size()));
  }
  std::size_t other_apps = 0;
  SettingsDigest app;
  for (const auto& a : d.app_table) {
    if (a.selector == "dscp") continue;  // in dscp_map
    app.Add(a.selector).Add(a.protocol).Add(a.priority);
    ++other_apps;
  }
  if (other_apps > 0) AddTable(out, n, "app", app, static_cast<double>(other_apps));
  if (d.priority_tc || d.tc_tx_bandwidth_percent || d.tc_tsa || d.tc_max_rate_bytes_per_second) {
    SettingsDigest ets;
    for (int i = 0; i < 8; ++i) {
      ets.Add(d.priority_tc ? std::to_string((*d.priority_tc)[i]) : "-");
      ets.Add(d.tc_tx_bandwidth_percent ? FormatDouble((*d.tc_tx_bandwidth_percent)[i]) : "-");
      ets.Add(d.tc_tsa ? (*d.tc_tsa)[i] : "-");
      ets.Add(d.tc_max_rate_bytes_per_second ? FormatDouble((*d.tc_max_rate_bytes_per_second)[i]) : "-");
    }
    AddTable(out, n, "ets", ets, 8);
  }
  if (d.priority_buffer || d.buffer_size_bytes || d.buffer_total_bytes) {
    SettingsDigest buf;
    for (int i = 0; i < 8; ++i) {
      buf.Add(d.priority_buffer ? std::to_string((*d.priority_buffer)[i]) : "-");
      buf.Add(d.buffer_size_bytes ? FormatDouble((*d.buffer_size_bytes)[i]) : "-");
    }
    buf.Add(d.buffer_total_bytes ? FormatDouble(*d.buffer_total_bytes) : "-");
    AddTable(out, n, "buffer", buf, 8);
  }
  if (!d.dcbx_modes.empty()) {
    SettingsDigest dcbx;
    for (const auto& m : d.dcbx_modes) dcbx.Add(m);
    AddTable(out, n, "dcbx", dcbx, static_cast<double>(d.dcbx_modes.size()));
  }
}

// One netdev's table, from its settings and what the rest of the snapshot decides (shown.h).
void RenderNetdev(const DcbSettings& d, const DcbShown& shown, MetricSink& out) {
  const std::string& n = d.netdev;
  out.Add(kSupported, {n}, d.supported ? 1 : 0);
  if (!d.supported) return;
  const bool full = d.full_tables;
  const auto& used = shown.used_dscps;
  if (d.pfc_enabled) {
    for (int p = 0; p < 8; ++p) {
      if (shown.pfc[p]) out.Add(kPfcEnabled, {n, std::to_string(p)}, (*d.pfc_enabled)[p]);
    }
  }
  if (d.pfc_capability) out.Add(kPfcCapability, {n}, *d.pfc_capability);
  AddDigests(d, out);
  for (int p = 0; p < 8; ++p) {
    if (!shown.frames[p]) continue;
    const std::string prio = std::to_string(p);
    out.Add(kDcbPfcFrames, {n, prio, "rx"}, shown.rx_frames[p]);
    out.Add(kDcbPfcFrames, {n, prio, "tx"}, shown.tx_frames[p]);
  }
  if (!full) {
    if (!d.trust.empty()) out.Add(kTrust, {n, d.trust}, 1);
    for (const auto& m : d.dscp_priority) {
      if (!std::binary_search(used.begin(), used.end(), m.dscp)) continue;
      const std::string dscp = std::to_string(m.dscp);
      out.Add(kDscpPriority, {n, dscp}, m.priority);
      if (m.ambiguous) out.Add(kDscpAmbiguous, {n, dscp}, 1);
    }
    if (d.buffer_total_bytes) out.Add(kBufferTotal, {n}, *d.buffer_total_bytes);
    return;
  }
  if (d.priority_tc) {
    for (int p = 0; p < 8; ++p) out.Add(kPriorityTc, {n, std::to_string(p)}, (*d.priority_tc)[p]);
  }
  if (d.tc_tx_bandwidth_percent) {
    for (int tc = 0; tc < 8; ++tc) {
      out.Add(kTcBandwidth, {n, std::to_string(tc)}, (*d.tc_tx_bandwidth_percent)[tc] / 100.0);
    }
  }
  if (d.tc_tsa) {
    for (int tc = 0; tc < 8; ++tc) out.Add(kTcTsa, {n, std::to_string(tc), (*d.tc_tsa)[tc]}, 1);
  }
  if (d.tc_max_rate_bytes_per_second) {
    for (int tc = 0; tc < 8; ++tc) {
      out.Add(kTcMaxRate, {n, std::to_string(tc)}, (*d.tc_max_rate_bytes_per_second)[tc]);
    }
  }
  if (!d.trust.empty()) out.Add(kTrust, {n, d.trust}, 1);
  for (const auto& m : d.dscp_priority) {
    const std::string dscp = std::to_string(m.dscp);
    out.Add(kDscpPriority, {n, dscp}, m.priority);
    if (m.ambiguous) out.Add(kDscpAmbiguous, {n, dscp}, 1);
  }
  for (const auto& a : d.app_table) {
    out.Add(kApp, {n, a.selector, std::to_string(a.protocol), std::to_string(a.priority)}, 1);
  }
  if (d.priority_buffer) {
    for (int p = 0; p < 8; ++p) {
      out.Add(kPriorityBuffer, {n, std::to_string(p)}, (*d.priority_buffer)[p]);
    }
  }
  if (d.buffer_size_bytes) {
    for (int b = 0; b < 8; ++b) {
      out.Add(kBufferSize, {n, std::to_string(b)}, (*d.buffer_size_bytes)[b]);
    }
  }
  if (d.buffer_total_bytes) out.Add(kBufferTotal, {n}, *d.buffer_total_bytes);
  for (const auto& mode : d.dcbx_modes) out.Add(kDcbxMode, {n, mode}, 1);
}

}  // namespace

DcbShown DcbShownOf(const NodeSnapshot& snap, const DcbSnapshot& d) {
  DcbShown shown;
  if (!d.supported) return shown;
  shown.used_dscps = UsedDscps(snap, d);
  shown.frames = DcbFramesShown(snap, d);
  shown.pfc = PfcShown(snap, d, shown.frames, shown.used_dscps);
  for (int p = 0; p < 8; ++p) {
    if (!shown.frames[p]) continue;  // DcbFramesShown: both counter arrays are there
    shown.rx_frames[p] = (*d.pfc_rx_pause_frames)[p];
    shown.tx_frames[p] = (*d.pfc_tx_pause_frames)[p];
  }
  return shown;
}

void RenderDcb(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& d : snap.dcb) RenderNetdev(d, DcbShownOf(snap, d), out);
}

}  // namespace rocewatch::collectors
