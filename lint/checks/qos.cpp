// QoS: the lossless class as planned — trust mode, PFC on exactly the planned
// priorities, the RoCE and CNP DSCPs on their priorities, no global pause, and
// rdma_cm defaults that put RoCE traffic on it.

#include <cmath>

#include "lint/checks/check.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/fix/commands.h"

namespace rocewatch::lint::checks {

void CheckQos(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  const auto& v = c.view;
  const std::string& nd = c.nic.netdev;
  const auto tools = fix::Toolset::kUpstream;

  auto supported = v.Value("roce_dcb_supported", {{"netdev", nd}});
  bool wants_pfc = p->pfc_priorities && !p->pfc_priorities->empty();
  if (supported && *supported == 0) {
    if (wants_pfc) {
      sink.Nic(kDcbUnsupported, c, "DCB (PFC on " + FormatPriorities(*p->pfc_priorities) + ")",
               "no DCB support",
               nd + " answers dcbnl with EOPNOTSUPP: PFC cannot be enabled on it.",
               "use a RoCE-capable NIC and driver (mlx5_core) for " + nd + ", or fix the plan");
    }
    return;  // nothing else of DCB to compare
  }

  if (p->trust) {
    auto trust = TrustMode(v, nd);
    if (trust && *trust != *p->trust) {
      std::map<std::int64_t, std::int64_t> entries;
      if (p->roce_dscp && p->roce_priority) entries[*p->roce_dscp] = *p->roce_priority;
      if (p->cnp_dscp && p->cnp_priority) entries[*p->cnp_dscp] = *p->cnp_priority;
      sink.Nic(kTrust, c, *p->trust, *trust,
               nd + " trusts " + *trust + ", the profile wants " + *p->trust +
                   ": RoCE packets land on the wrong priority and lose their lossless class.",
               *p->trust == "dscp" ? fix::SetTrustDscp(tools, nd, entries) : fix::SetTrustPcp(tools, nd));
    }
  }
  if (p->pfc_priorities) {
    auto pfc = EnabledPriorities(v, "roce_pfc_enabled", nd);
    if (pfc && *pfc != *p->pfc_priorities) {
      sink.Nic(kPfcPriorities, c, FormatPriorities(*p->pfc_priorities), FormatPriorities(*pfc),
               nd + " has PFC on " + FormatPriorities(*pfc) + ", the profile wants " +
                   FormatPriorities(*p->pfc_priorities) + ".",
               fix::SetPfc(tools, nd, *p->pfc_priorities));
    }
  }
  if (!p->trust || *p->trust == "dscp") {
    if (auto map = DscpPriorities(v, nd)) {
      for (auto [dscp, prio, what] :
           {std::tuple{p->roce_dscp, p->roce_priority, "RoCE"}, std::tuple{p->cnp_dscp, p->cnp_priority, "CNP"}}) {
        if (!dscp || !prio) continue;
        const int mapped = *dscp >= 0 && *dscp < 64 ? (*map)[static_cast<std::size_t>(*dscp)] : -1;
        std::string found = mapped < 0 ? "unmapped" : "priority " + std::to_string(mapped);
        if (mapped < 0 && DscpMapPartial(v, nd)) {
          // The exporter serves only the DSCPs the node uses (and --collector.dcb.dscps): this
          // one may be mapped; say how to see it instead of calling it unmapped.
          sink.Nic(kDscpPriority, c, "DSCP " + std::to_string(*dscp) + " → priority " + std::to_string(*prio),
                   "DSCP " + std::to_string(*dscp) + " not exported",
                   nd + " does not export the " + what + " DSCP " + std::to_string(*dscp) +
                       " (its exporter serves the DSCPs the node uses); its mapping is unknown.",
                   "run roce_exporter with --collector.dcb.dscps=" + std::to_string(*dscp) +
                       " (or --collector.dcb.full-tables=true)");
          continue;
        }
        if (mapped != *prio) {
          sink.Nic(kDscpPriority, c, "DSCP " + std::to_string(*dscp) + " → priority " + std::to_string(*prio),
                   "DSCP " + std::to_string(*dscp) + " → " + found,
                   nd + " maps the " + what + " DSCP " + std::to_string(*dscp) + " to " + found +
                       ", the profile wants priority " + std::to_string(*prio) + ".",
                   fix::SetDscpPriority(tools, nd, *dscp, *prio),
                   {"dscp." + std::to_string(*dscp), *prio,
                    mapped < 0 ? SettingValue{} : SettingValue{std::int64_t{mapped}}});
        }
      }
    }
  }
  if (wants_pfc) {
    auto rx = v.Value("roce_pause_rx_enabled", {{"netdev", nd}});
    auto tx = v.Value("roce_pause_tx_enabled", {{"netdev", nd}});
    if ((rx && *rx == 1) || (tx && *tx == 1)) {
      std::string found = std::string("rx ") + (rx && *rx == 1 ? "on" : "off") + ", tx " + (tx && *tx == 1 ? "on" : "off");
      sink.Nic(kGlobalPause, c, "rx off, tx off", found,
               nd + " has 802.3x global pause on (" + found + ") beside PFC: a pause stops every priority.",
               fix::SetGlobalPauseOff(nd));
    }
  }
  if (p->roce_mode) {
    for (const auto& m : v.Select("roce_cm_default_roce_mode_info", {{"device", c.nic.ib_dev}, {"port", c.port}})) {
      if (m.Label("mode") == "RoCE v2") continue;
      sink.Nic(kCmRoceMode, c, "RoCE v2", std::string(m.Label("mode")),
               c.nic.ib_dev + " port " + c.port + " defaults rdma_cm connections to " +
                   std::string(m.Label("mode")) + ": NCCL/UCX connections are not routable RoCE v2.",
               fix::SetCmRoceModeV2(tools, c.nic.ib_dev, c.port));
    }
  }
  if (p->roce_dscp) {
    auto tos = v.Value("roce_cm_default_tos", {{"device", c.nic.ib_dev}, {"port", c.port}});
    if (tos && static_cast<std::int64_t>(*tos) >> 2 != *p->roce_dscp) {
      sink.Nic(kCmTos, c, "DSCP " + std::to_string(*p->roce_dscp) + " (ToS " + std::to_string(fix::TosForDscp(*p->roce_dscp)) + ")",
               "ToS " + FormatNumber(*tos) + " (DSCP " + std::to_string(static_cast<std::int64_t>(*tos) >> 2) + ")",
               c.nic.ib_dev + " port " + c.port + " gives rdma_cm connections ToS " + FormatNumber(*tos) +
                   ", which does not carry the RoCE DSCP " + std::to_string(*p->roce_dscp) + ".",
               fix::SetCmTos(tools, c.nic.ib_dev, c.port, fix::TosForDscp(*p->roce_dscp)));
    }
  }
}

}  // namespace rocewatch::lint::checks
