// The switch port's side of a NIC's link, from LLDP DCBX and --switch-config (group.h).

#include <algorithm>
#include <set>

#include "lint/checks/observed.h"
#include "lint/checks/peer/group.h"
#include "lint/metric_contract.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::checks::peer {
namespace {

struct Neighbour {
  std::string switch_name, port;
};

std::optional<Neighbour> NeighbourOf(const observe::NodeView& view, const std::string& netdev) {
  for (const auto& s : view.Select(metric::roce_lldp_neighbor_info, {{label::netdev, netdev}})) {
    Neighbour n{std::string(s.Label(label::system_name)), std::string(s.Label(label::port_id))};
    if (n.switch_name.empty()) n.switch_name = std::string(s.Label(label::chassis_id));
    if (!n.switch_name.empty() || !n.port.empty()) return n;
  }
  return std::nullopt;
}

bool HasTlv(const observe::NodeView& view, const std::string& netdev, std::string_view tlv) {
  return !view.Select(metric::roce_lldp_peer_dcbx_info, {{label::netdev, netdev}, {label::tlv, tlv}}).empty();
}

// What the port's DCBX TLVs say; false when it sends none.
bool ReadDcbx(const observe::NodeView& view, const std::string& netdev, SwitchSide& s) {
  auto sent = view.Value(metric::roce_lldp_peer_dcbx_sent, {{label::netdev, netdev}});
  if (!sent || *sent != 1) return false;
  if (HasTlv(view, netdev, "pfc")) {
    // Only the enabled priorities are series by default: a PFC TLV without any enables none.
    s.pfc = EnabledPriorities(view, metric::roce_lldp_peer_pfc_enabled, netdev).value_or(std::vector<std::int64_t>{});
  }
  if (HasTlv(view, netdev, "app")) {
    for (const auto& a : view.Select(metric::roce_lldp_peer_app_info, {{label::netdev, netdev}, {label::protocol, "4791"}})) {
      std::string_view selector = a.Label(label::selector);
      if (selector != "dgram" && selector != "any") continue;
      if (auto prio = ParseI64(a.Label(label::priority)); prio && *prio >= 0 && *prio < 8) {
        s.udp_4791 = *prio;
        break;
      }
    }
    auto full = view.Select(metric::roce_lldp_peer_dscp_priority, {{label::netdev, netdev}});
    if (!full.empty()) {
      std::array<std::int8_t, 64> map;
      map.fill(-1);
      for (const auto& d : full) {
        auto dscp = ParseI64(d.Label(label::dscp));
        if (dscp && *dscp >= 0 && *dscp < 64 && d.value() >= 0 && d.value() < 8)
          map[static_cast<std::size_t>(*dscp)] = static_cast<std::int8_t>(d.value());
      }
      s.dscp = map;
    } else {
      auto digest = view.Select(metric::roce_lldp_peer_table_entries, {{label::netdev, netdev}, {label::table, "dscp_map"}});
      if (!digest.empty()) s.dscp_digest = std::string(digest.front().Label(label::digest));
    }
  }
  return true;
}

void FillFromConfig(const switch_config::SwitchConfig& config, const switch_config::PortQos& port, SwitchSide& s) {
  s.nos = config.nos;
  s.config_port = port.name.empty() ? s.port : port.name;
  if (!s.pfc) s.pfc = port.pfc_priorities;
  if (!s.dscp && s.dscp_digest.empty() && port.dscp_priority) {
    s.dscp = port.dscp_priority;
    s.dscp_is_tc = config.nos == switch_config::Nos::kSonic;
  }
  s.ecn = port.ecn_priorities;
}

std::string Sh(const std::string& word) { return escape::ShWord(word); }

// The port as the switch's own commands name it: the file's name, else the LLDP Port ID.
const std::string& NosPort(const SwitchSide& s) { return s.config_port.empty() ? s.port : s.config_port; }

enum class Guess { kSonic, kCumulus, kEos, kUnknown };

std::vector<Guess> NosOf(const SwitchSide& s) {
  if (s.nos) return {*s.nos == switch_config::Nos::kSonic ? Guess::kSonic : Guess::kCumulus};
  if (s.port.rfind("swp", 0) == 0) return {Guess::kCumulus};
  if (s.port.rfind("Ethernet", 0) == 0)
    return s.port.find('/') != std::string::npos ? std::vector<Guess>{Guess::kEos}
                                                 : std::vector<Guess>{Guess::kSonic, Guess::kEos};
  return {Guess::kUnknown};
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

}  // namespace

std::string SwitchSide::Where() const { return escape::TerminalText(switch_name) + " port " + escape::TerminalText(port); }

std::optional<SwitchSide> SwitchSideOf(const NicContext& c) {
  auto n = NeighbourOf(c.view, c.nic.netdev);
  if (!n) return std::nullopt;
  SwitchSide s;
  s.switch_name = n->switch_name;
  s.port = n->port;
  std::vector<std::string> sources;
  if (ReadDcbx(c.view, c.nic.netdev, s)) sources.push_back("LLDP DCBX");
  if (c.switches != nullptr) {
    auto m = c.switches->Find(n->switch_name, n->port);
    if (m.config != nullptr) {
      FillFromConfig(*m.config, *m.port, s);
      sources.push_back(m.config->source + " (" + std::string(switch_config::NosName(m.config->nos)) + ")");
    }
  }
  if (sources.empty()) return std::nullopt;
  s.source = Join(sources, " and ");
  return s;
}

std::optional<SwitchSide> NeighbourSideOf(const NicContext& c) {
  if (auto s = SwitchSideOf(c)) return s;
  auto n = NeighbourOf(c.view, c.nic.netdev);
  if (!n) return std::nullopt;
  SwitchSide s;
  s.switch_name = n->switch_name;
  s.port = n->port;
  return s;
}

const switch_config::PortPauses* SwitchPausesOf(const NicContext& c) {
  if (c.switches == nullptr || !c.switches->pauses().read()) return nullptr;
  auto n = NeighbourOf(c.view, c.nic.netdev);
  if (!n) return nullptr;
  return c.switches->pauses().Find(n->switch_name, n->port);
}

std::vector<std::string> NicsWithoutSwitchCounters(const plan::Node& node, const observe::NodeView& view,
                                                   const switch_config::SwitchConfigs* switches) {
  std::vector<std::string> out;
  if (!view.reachable() || !view.Value(metric::roce_lldp_daemon_reachable)) return out;
  for (const plan::Nic& nic : node.nics) {
    auto n = NeighbourOf(view, nic.netdev);
    if (!n) continue;  // cabling.no-neighbor says so
    const bool has = switches != nullptr && switches->pauses().read() &&
                     switches->pauses().Find(n->switch_name, n->port) != nullptr;
    if (!has) out.push_back(nic.netdev);
  }
  return out;
}

std::string BothEnds(const NicContext& c, const SwitchSide& s) {
  return c.node.name + " " + c.nic.ib_dev + " (" + c.nic.netdev + ") ↔ " + s.Where();
}

namespace {

// "switch leaf-0 port Ethernet8: <options joined by "; or ">", in every language.
i18n::Phrase SwitchFix(const SwitchSide& s, const std::vector<i18n::Phrase>& options) {
  i18n::StoredArgs args = {{"where", s.Where()}};
  i18n::AddListArg(args, "options", options, "check.peer.fix.or");
  return i18n::Phrase::Of("check.peer.fix.switch", args);
}

}  // namespace

i18n::Phrase SwitchPfcFixText(const SwitchSide& s, const std::vector<std::int64_t>& want) {
  std::vector<i18n::Phrase> out;
  const std::string list = FormatPriorities(want);
  for (Guess g : NosOf(s)) {
    std::vector<std::string> cmds;
    switch (g) {
      case Guess::kCumulus:
        for (auto p : want) cmds.push_back("nv set qos pfc default-global switch-priority " + std::to_string(p));
        cmds.push_back("nv config apply");
        out.push_back(i18n::Phrase::Of("check.peer.fix.cumulus", {{"commands", Join(cmds, " && ")}}));
        break;
      case Guess::kSonic:
        for (std::int64_t p = 0; p < 8; ++p) {
          bool on = std::find(want.begin(), want.end(), p) != want.end();
          if (on || (s.pfc && std::find(s.pfc->begin(), s.pfc->end(), p) != s.pfc->end()))
            cmds.push_back("config interface pfc priority " + Sh(NosPort(s)) + " " + std::to_string(p) + (on ? " on" : " off"));
        }
        cmds.push_back("config save -y");
        out.push_back(i18n::Phrase::Of("check.peer.fix.sonic", {{"commands", Join(cmds, " && ")}}));
        break;
      case Guess::kEos:
        cmds.push_back("interface " + NosPort(s));
        cmds.push_back("priority-flow-control on");
        for (std::int64_t p = 0; p < 8; ++p) {
          bool on = std::find(want.begin(), want.end(), p) != want.end();
          if (on || (s.pfc && std::find(s.pfc->begin(), s.pfc->end(), p) != s.pfc->end()))
            cmds.push_back("priority-flow-control priority " + std::to_string(p) + (on ? " no-drop" : " drop"));
        }
        out.push_back(i18n::Phrase::Of("check.peer.fix.eos", {{"commands", escape::TerminalText(Join(cmds, "; "))}}));
        break;
      case Guess::kUnknown:
        out.push_back(i18n::Phrase::Of("check.peer.fix.pfc_unknown", {{"priorities", list}}));
        break;
    }
  }
  return SwitchFix(s, out);
}

i18n::Phrase SwitchDscpFixText(const SwitchSide& s, std::int64_t dscp, std::int64_t priority) {
  const std::string d = std::to_string(dscp), p = std::to_string(priority);
  std::vector<i18n::Phrase> out;
  for (Guess g : NosOf(s)) {
    switch (g) {
      case Guess::kCumulus:
        out.push_back(i18n::Phrase::Of("check.peer.fix.cumulus",
                                       {{"commands", "nv set qos mapping default-global dscp " + d + " switch-priority " +
                                                         p + " && nv config apply"}}));
        break;
      case Guess::kSonic:
        out.push_back(i18n::Phrase::Of("check.peer.fix.dscp_sonic", {{"dscp", d}, {"priority", p}}));
        break;
      case Guess::kEos:
        out.push_back(i18n::Phrase::Of("check.peer.fix.eos", {{"commands", "qos map dscp " + d + " to traffic-class " + p}}));
        break;
      case Guess::kUnknown:
        out.push_back(i18n::Phrase::Of("check.peer.fix.dscp_unknown", {{"dscp", d}, {"priority", p}}));
        break;
    }
  }
  return SwitchFix(s, out);
}

i18n::Phrase SwitchEcnFixText(const SwitchSide& s, std::int64_t priority) {
  const std::string p = std::to_string(priority);
  if (s.nos == switch_config::Nos::kCumulus)
    return SwitchFix(s, {i18n::Phrase::Of("check.peer.fix.cumulus",
                                          {{"commands", "nv set qos congestion-control default-global traffic-class " + p +
                                                            " ecn enable && nv config apply"}})});
  if (s.nos == switch_config::Nos::kSonic)
    return SwitchFix(s, {i18n::Phrase::Of("check.peer.fix.ecn_sonic",
                                          {{"port", escape::TerminalText(NosPort(s))}, {"priority", p}})});
  return SwitchFix(s, {i18n::Phrase::Of("check.peer.fix.ecn_unknown", {{"priority", p}})});
}

i18n::Phrase NicNothingFix(const i18n::Phrase& switch_fix, const std::string& netdev, std::string_view check) {
  i18n::StoredArgs args = {{"netdev", netdev}, {"check", std::string(check)}};
  i18n::AddPhraseArg(args, "switch", switch_fix);
  return i18n::Phrase::Of("check.peer.fix.nic_nothing", args);
}

std::vector<std::string> NicsWithoutSwitchSide(const plan::Node& node, const observe::NodeView& view,
                                               const switch_config::SwitchConfigs* switches) {
  std::vector<std::string> out;
  if (!view.reachable() || !view.Value(metric::roce_lldp_daemon_reachable)) return out;
  for (const plan::Nic& nic : node.nics) {
    bool has = false;
    if (auto sent = view.Value(metric::roce_lldp_peer_dcbx_sent, {{label::netdev, nic.netdev}}); sent && *sent == 1)
      has = true;
    if (!has && switches != nullptr)
      if (auto n = NeighbourOf(view, nic.netdev)) has = switches->Find(n->switch_name, n->port).config != nullptr;
    if (!has) out.push_back(nic.netdev);
  }
  return out;
}

}  // namespace rocewatch::lint::checks::peer
