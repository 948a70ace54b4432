#include <string>

#include "metrics/renderers.h"

namespace rocewatch::metrics {
namespace {

using T = MetricType;

const MetricSpec kSupported{"roce_dcb_supported", T::kGauge,
    "1 when the netdev answers dcbnl (has DCB), 0 when it answers EOPNOTSUPP.", {"netdev"}};
const MetricSpec kPfcEnabled{"roce_pfc_enabled", T::kGauge,
    "1 when priority flow control is enabled for the priority (ieee_pfc pfc_en), else 0.",
    {"netdev", "priority"}};
const MetricSpec kPfcCapability{"roce_pfc_capability", T::kGauge,
    "How many priorities may have PFC enabled at once (ieee_pfc pfc_cap).", {"netdev"}};
const MetricSpec kDcbPfcFrames{"roce_dcb_pfc_pause_frames_total", T::kCounter,
    "PFC pause frames per priority as dcbnl reports them (requests sent as tx, indications "
    "received as rx).",
    {"netdev", "priority", "direction"}};
const MetricSpec kPriorityTc{"roce_ets_priority_traffic_class", T::kGauge,
    "The traffic class a priority maps to (ieee_ets prio_tc).", {"netdev", "priority"}};
const MetricSpec kTcBandwidth{"roce_ets_tc_bandwidth_ratio", T::kGauge,
    "ETS transmit bandwidth share of the traffic class (ieee_ets tc_tx_bw, percent / 100).",
    {"netdev", "tc"}};
const MetricSpec kTcTsa{"roce_ets_tc_tsa_info", T::kGauge,
    "Transmission selection algorithm of the traffic class (strict, cbs, ets, vendor); always 1.",
    {"netdev", "tc", "tsa"}};
const MetricSpec kTcMaxRate{"roce_ets_tc_max_rate_bytes_per_second", T::kGauge,
    "Rate limit of the traffic class in bytes per second (ieee_maxrate); 0 means no limit.",
    {"netdev", "tc"}};
const MetricSpec kTrust{"roce_qos_trust_info", T::kGauge,
    "Trust mode: dscp when the APP table holds DSCP entries, else pcp; always 1.",
    {"netdev", "mode"}};
const MetricSpec kDscpPriority{"roce_dscp_priority", T::kGauge,
    "The priority the APP table maps a DSCP to (the first one when it maps it to several).",
    {"netdev", "dscp"}};
const MetricSpec kDscpAmbiguous{"roce_dscp_priority_ambiguous", T::kGauge,
    "Present (1) for a DSCP the APP table maps to more than one priority.", {"netdev", "dscp"}};
const MetricSpec kApp{"roce_dcb_app_info", T::kGauge,
    "An APP table entry (selector dscp, ethertype, stream, dgram, any or pcp); always 1.",
    {"netdev", "selector", "protocol", "priority"}};
const MetricSpec kPriorityBuffer{"roce_dcb_priority_buffer", T::kGauge,
    "The receive buffer a priority maps to (dcbnl_buffer prio2buffer).", {"netdev", "priority"}};
const MetricSpec kBufferSize{"roce_dcb_buffer_size_bytes", T::kGauge,
    "Size of a receive buffer in bytes (dcbnl_buffer buffer_size).", {"netdev", "buffer"}};
const MetricSpec kBufferTotal{"roce_dcb_buffer_total_bytes", T::kGauge,
    "Total port receive buffer in bytes (dcbnl_buffer total_size).", {"netdev"}};
const MetricSpec kDcbxMode{"roce_dcbx_mode_info", T::kGauge,
    "A DCBX capability bit the driver reports (host, lld_managed, cee, ieee, static); always 1.",
    {"netdev", "mode"}};

}  // namespace

const SpecList& DcbSpecs() {
  static const SpecList kSpecs = {&kSupported,   &kPfcEnabled,    &kPfcCapability, &kDcbPfcFrames,
                                  &kPriorityTc,  &kTcBandwidth,   &kTcTsa,         &kTcMaxRate,
                                  &kTrust,       &kDscpPriority,  &kDscpAmbiguous, &kApp,
                                  &kPriorityBuffer, &kBufferSize, &kBufferTotal,   &kDcbxMode};
  return kSpecs;
}

void RenderDcb(const NodeSnapshot& snap, MetricSink& out) {
  for (const auto& d : snap.dcb) {
    const std::string& n = d.netdev;
    out.Add(kSupported, {n}, d.supported ? 1 : 0);
    if (!d.supported) continue;
    if (d.pfc_enabled) {
      for (int p = 0; p < 8; ++p) out.Add(kPfcEnabled, {n, std::to_string(p)}, (*d.pfc_enabled)[p]);
    }
    if (d.pfc_capability) out.Add(kPfcCapability, {n}, *d.pfc_capability);
    if (d.pfc_rx_pause_frames && d.pfc_tx_pause_frames) {
      for (int p = 0; p < 8; ++p) {
        const std::string prio = std::to_string(p);
        out.Add(kDcbPfcFrames, {n, prio, "rx"}, (*d.pfc_rx_pause_frames)[p]);
        out.Add(kDcbPfcFrames, {n, prio, "tx"}, (*d.pfc_tx_pause_frames)[p]);
      }
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
}

}  // namespace rocewatch::metrics
