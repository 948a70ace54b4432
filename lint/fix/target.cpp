#include "lint/fix/target.h"

#include <algorithm>
#include <string_view>

#include "rocewatch/strings.h"

namespace rocewatch::lint::fix {
namespace {

// "3,4" or "none" (the drift check's way of writing priorities) → {3, 4} / {}.
std::optional<std::vector<std::int64_t>> ParsePriorities(std::string_view text) {
  std::vector<std::int64_t> out;
  if (Trim(text) == "none") return out;
  for (auto part : Split(text, ',')) {
    auto p = ParseI64(part);
    if (!p || *p < 0 || *p > 7) return std::nullopt;
    out.push_back(*p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "key = value" (drift.setting's and ecn.dcqcn-parameter's `expected`) → {key, value}.
std::optional<std::pair<std::string, std::string>> SplitAssignment(std::string_view text) {
  auto at = text.find(" = ");
  if (at == std::string_view::npos) return std::nullopt;
  return std::pair{std::string(Trim(text.substr(0, at))), std::string(Trim(text.substr(at + 3)))};
}

// The DSCP of qos.dscp-priority's `expected` ("DSCP 26 → priority 3").
std::optional<std::int64_t> ExpectedDscp(std::string_view expected) {
  if (expected.rfind("DSCP ", 0) != 0) return std::nullopt;
  expected.remove_prefix(5);
  return ParseI64(expected.substr(0, expected.find(' ')));
}

// Applies one drift.setting finding (the majority's value) to `out`; false when the key is
// not one the script sets.
bool ApplyDrift(const NicTarget& full, const std::string& key, const std::string& value,
                NicTarget& out) {
  auto number = ParseI64(value);
  if (key == "netdev_mtu" && number) {
    out.mtu = *number;
    return true;
  }
  if (key == "pfc" || key == "ecn.np" || key == "ecn.rp") {
    auto prios = ParsePriorities(value);
    if (!prios) return false;
    (key == "pfc" ? out.pfc : key == "ecn.np" ? out.ecn_np : out.ecn_rp) = *prios;
    return true;
  }
  if (key.rfind("dscp.", 0) == 0 && number) {
    auto dscp = ParseI64(std::string_view(key).substr(5));
    if (!dscp) return false;
    out.dscp_priority[*dscp] = *number;
    return true;
  }
  if ((key.rfind("dcqcn.np.", 0) == 0 || key.rfind("dcqcn.rp.", 0) == 0) && number) {
    (key.compare(6, 2, "np") == 0 ? out.dcqcn_np : out.dcqcn_rp)[key.substr(9)] = *number;
    return true;
  }
  if (key == "cm.roce_mode" && value == "RoCE v2") {
    out.cm_roce_v2 = true;
    return true;
  }
  if (key == "cm.tos" && number) {
    out.cm_tos_dscp = *number >> 2;
    return true;
  }
  if (key == "trust" && (value == "dscp" || value == "pcp")) {
    if (value == "dscp" && full.dscp_priority.empty()) return false;  // nothing to add
    out.trust = value;
    if (value == "dscp") out.trust_dscp = full.dscp_priority;
    return true;
  }
  if ((key == "pause.rx" || key == "pause.tx") && value == "0") {
    out.global_pause_off = true;
    return true;
  }
  return false;
}

// Why a check's findings are not a script step.
std::string WhyUnfixable(std::string_view check) {
  if (check.rfind("inventory.", 0) == 0)
    return "the device, its netdev or the exporter must be fixed first";
  if (check.rfind("versions.", 0) == 0) return "install the firmware or driver the profile accepts";
  if (check.rfind("optics.", 0) == 0) return "a transceiver or cable problem, not a setting";
  if (check.rfind("counters.", 0) == 0) return "a traffic symptom, not a setting";
  if (check == "link.port-down" || check == "link.rate")
    return "a link problem (cable, switch port, speed), not a setting";
  if (check.rfind("link.pcie", 0) == 0) return "a PCIe slot or riser problem, not a setting";
  if (check == "qos.dcb-unsupported") return "the netdev has no DCB support";
  return "no script step sets it";
}

}  // namespace

std::size_t NicTarget::SettingCount() const {
  std::size_t n = 0;
  n += trust.has_value();
  n += pfc.has_value();
  n += dscp_priority.size();
  n += ecn_np.has_value() + ecn_rp.has_value();
  n += dcqcn_np.size() + dcqcn_rp.size();
  n += global_pause_off;
  n += mtu.has_value();
  n += cm_roce_v2;
  n += cm_tos_dscp.has_value();
  return n;
}

NicTarget TargetFromProfile(const plan::Nic& nic, const plan::Profile& p) {
  NicTarget t;
  t.ib_dev = nic.ib_dev;
  t.netdev = nic.netdev;
  t.profile = nic.profile;
  std::map<std::int64_t, std::int64_t> entries;
  if (p.roce_dscp && p.roce_priority) entries[*p.roce_dscp] = *p.roce_priority;
  if (p.cnp_dscp && p.cnp_priority) entries[*p.cnp_dscp] = *p.cnp_priority;
  t.trust = p.trust;
  if (p.trust == "dscp") t.trust_dscp = entries;
  t.pfc = p.pfc_priorities;
  if (t.pfc) std::sort(t.pfc->begin(), t.pfc->end());
  // Under trust pcp the DSCP map is unused (and an upstream DSCP entry would switch the
  // device to trust dscp), so it is left alone.
  if (p.trust != "pcp") t.dscp_priority = entries;
  t.ecn_np = p.ecn.np_priorities;
  t.ecn_rp = p.ecn.rp_priorities;
  for (auto* ecn : {&t.ecn_np, &t.ecn_rp})
    if (*ecn) std::sort((*ecn)->begin(), (*ecn)->end());
  if (p.dcqcn) {
    t.dcqcn_np = p.dcqcn->np;
    t.dcqcn_rp = p.dcqcn->rp;
  }
  // The NIC marks CNPs with the np parameters cnp_dscp / cnp_802p_prio (the plan check
  // plan.dcqcn-cnp-mismatch keeps them equal to cnp_dscp / cnp_priority).
  if (p.cnp_dscp) t.dcqcn_np.emplace("cnp_dscp", *p.cnp_dscp);
  if (p.cnp_priority) t.dcqcn_np.emplace("cnp_802p_prio", *p.cnp_priority);
  t.global_pause_off = p.pfc_priorities && !p.pfc_priorities->empty();
  t.mtu = p.netdev_mtu;
  t.cm_roce_v2 = p.roce_mode == "v2";
  t.cm_tos_dscp = p.roce_dscp;
  t.firmware = p.firmware;
  t.driver = p.driver;
  t.driver_version = p.driver_version;
  return t;
}

FindingsTarget RestrictToFindings(const std::vector<NicTarget>& full,
                                  const std::vector<Finding>& findings) {
  FindingsTarget result;
  std::vector<NicTarget> out;
  for (const auto& f : full) {
    NicTarget t;
    t.ib_dev = f.ib_dev;
    t.netdev = f.netdev;
    t.profile = f.profile;
    t.firmware = f.firmware;
    t.driver = f.driver;
    t.driver_version = f.driver_version;
    out.push_back(std::move(t));
  }
  for (const auto& finding : findings) {
    const std::string& check = finding.check;
    if (check == "inventory.exporter-unreachable") result.observed = false;
    std::size_t i = 0;
    while (i < full.size() && !(finding.device == full[i].ib_dev ||
                                (finding.device.empty() && finding.netdev == full[i].netdev)))
      ++i;
    if (i == full.size()) {
      result.unfixable.push_back({&finding, WhyUnfixable(check)});
      continue;
    }
    const NicTarget& all = full[i];
    NicTarget& t = out[i];
    if (!finding.port.empty()) t.port = finding.port;
    bool fixed = true;
    if (check == "qos.trust" && all.trust) {
      t.trust = all.trust;
      t.trust_dscp = all.trust_dscp;
    } else if (check == "qos.pfc-priorities" && all.pfc) {
      t.pfc = all.pfc;
    } else if (check == "qos.dscp-priority" && !all.dscp_priority.empty()) {
      auto dscp = ExpectedDscp(finding.expected);
      if (dscp && all.dscp_priority.count(*dscp)) {
        t.dscp_priority[*dscp] = all.dscp_priority.at(*dscp);
      } else {
        for (const auto& [d, prio] : all.dscp_priority) t.dscp_priority[d] = prio;
      }
    } else if (check == "ecn.np-priorities" && all.ecn_np) {
      t.ecn_np = all.ecn_np;
    } else if (check == "ecn.rp-priorities" && all.ecn_rp) {
      t.ecn_rp = all.ecn_rp;
    } else if (check == "ecn.dcqcn-parameter") {
      auto kv = SplitAssignment(finding.expected);  // "np.rpg_gd = 11"
      fixed = false;
      if (kv && kv->first.size() > 3 && kv->first[2] == '.') {
        std::string point = kv->first.substr(0, 2), name = kv->first.substr(3);
        const auto& params = point == "np" ? all.dcqcn_np : all.dcqcn_rp;
        auto it = params.find(name);
        if (it != params.end()) {
          (point == "np" ? t.dcqcn_np : t.dcqcn_rp)[name] = it->second;
          fixed = true;
        }
      }
    } else if (check == "qos.cm-roce-mode" && all.cm_roce_v2) {
      t.cm_roce_v2 = true;
    } else if (check == "qos.cm-tos" && all.cm_tos_dscp) {
      t.cm_tos_dscp = all.cm_tos_dscp;
    } else if ((check == "link.netdev-mtu" || check == "link.roce-mtu") && all.mtu) {
      t.mtu = all.mtu;
    } else if (check == "qos.global-pause") {
      t.global_pause_off = true;
    } else if (check == "drift.setting") {
      auto kv = SplitAssignment(finding.expected);  // "dcqcn.rp.rpg_gd = 11"
      fixed = kv && ApplyDrift(all, kv->first, kv->second, t);
    } else {
      fixed = false;
    }
    if (!fixed) {
      std::string why = WhyUnfixable(check);
      if (check == "link.roce-mtu") why = "the profile states no netdev_mtu to set";
      if (check == "drift.setting")
        why = "the script sets no such setting; align it by hand or state it in the profile";
      result.unfixable.push_back({&finding, why});
    }
  }
  for (auto& t : out)
    if (t.SettingCount() > 0) result.nics.push_back(std::move(t));
  return result;
}

}  // namespace rocewatch::lint::fix
