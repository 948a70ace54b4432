#include "lint/fix/repairs.h"

#include <algorithm>
#include <string_view>

#include "lint/core/check_spec.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::fix {
namespace {

const std::int64_t* Number(const SettingValue& v) { return std::get_if<std::int64_t>(&v); }

// "dscp.26" → 26 (the key names of lint/checks/settings.h).
std::optional<std::int64_t> DscpOfKey(std::string_view key) {
  if (key.rfind("dscp.", 0) != 0) return std::nullopt;
  return ParseI64(key.substr(5));
}

// "dcqcn.np.rpg_gd" → the np or rp parameter map and "rpg_gd"; false for another key.
bool SplitDcqcnKey(const std::string& key, std::string& point, std::string& name) {
  if (key.rfind("dcqcn.", 0) != 0 || key.size() < 10 || key[8] != '.') return false;
  point = key.substr(6, 2);
  name = key.substr(9);
  return point == "np" || point == "rp";
}

bool RepairTrust(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.trust) return false;
  t.trust = all.trust;
  t.trust_dscp = all.trust_dscp;
  return true;
}

bool RepairPfc(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.pfc) return false;
  t.pfc = all.pfc;
  return true;
}

bool RepairDscpPriority(const Finding& finding, const NicTarget& all, NicTarget& t) {
  if (all.dscp_priority.empty()) return false;
  auto dscp = DscpOfKey(finding.setting.key);
  if (dscp && all.dscp_priority.count(*dscp)) {
    t.dscp_priority[*dscp] = all.dscp_priority.at(*dscp);
  } else {
    for (const auto& [d, prio] : all.dscp_priority) t.dscp_priority[d] = prio;
  }
  return true;
}

bool RepairEcnNp(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.ecn_np) return false;
  t.ecn_np = all.ecn_np;
  return true;
}

bool RepairEcnRp(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.ecn_rp) return false;
  t.ecn_rp = all.ecn_rp;
  return true;
}

bool RepairDcqcnParameter(const Finding& finding, const NicTarget& all, NicTarget& t) {
  std::string point, name;
  if (!SplitDcqcnKey(finding.setting.key, point, name)) return false;
  const auto& params = point == "np" ? all.dcqcn_np : all.dcqcn_rp;
  auto it = params.find(name);
  if (it == params.end()) return false;
  (point == "np" ? t.dcqcn_np : t.dcqcn_rp)[name] = it->second;
  return true;
}

bool RepairCmRoceMode(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.cm_roce_v2) return false;
  t.cm_roce_v2 = true;
  return true;
}

bool RepairCmTos(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.cm_tos_dscp) return false;
  t.cm_tos_dscp = all.cm_tos_dscp;
  return true;
}

bool RepairMtu(const Finding&, const NicTarget& all, NicTarget& t) {
  if (!all.mtu) return false;
  t.mtu = all.mtu;
  return true;
}

// A finding that names no setting lacks only counters the driver does not have: nothing a
// script can enable (counters.optional-disabled leaves the key empty then).
bool RepairOptionalCounters(const Finding& finding, const NicTarget& all, NicTarget& t) {
  if (all.optional_counters.empty() || finding.setting.key.empty()) return false;
  t.optional_counters = all.optional_counters;
  return true;
}

bool RepairGlobalPause(const Finding&, const NicTarget&, NicTarget& t) {
  t.global_pause_off = true;
  return true;
}

bool RepairDrift(const Finding& finding, const NicTarget& full, NicTarget& out) {
  const std::string& key = finding.setting.key;
  const SettingValue& value = finding.setting.expected;
  const std::int64_t* number = Number(value);
  const std::string* text = std::get_if<std::string>(&value);
  if (key == "netdev_mtu" && number) {
    out.mtu = *number;
    return true;
  }
  if (key == "pfc" || key == "ecn.np" || key == "ecn.rp") {
    const auto* prios = std::get_if<std::vector<std::int64_t>>(&value);
    if (prios == nullptr) return false;
    (key == "pfc" ? out.pfc : key == "ecn.np" ? out.ecn_np : out.ecn_rp) = *prios;
    return true;
  }
  if (auto dscp = DscpOfKey(key)) {
    if (!number) return false;
    out.dscp_priority[*dscp] = *number;
    return true;
  }
  std::string point, name;
  if (SplitDcqcnKey(key, point, name)) {
    if (!number) return false;
    (point == "np" ? out.dcqcn_np : out.dcqcn_rp)[name] = *number;
    return true;
  }
  if (key == "cm.roce_mode" && text && *text == "RoCE v2") {
    out.cm_roce_v2 = true;
    return true;
  }
  if (key == "cm.tos" && number) {
    out.cm_tos_dscp = *number >> 2;
    return true;
  }
  if (key == "trust" && text && (*text == "dscp" || *text == "pcp")) {
    if (*text == "dscp" && full.dscp_priority.empty()) return false;  // nothing to add
    out.trust = *text;
    if (*text == "dscp") out.trust_dscp = full.dscp_priority;
    return true;
  }
  if ((key == "pause.rx" || key == "pause.tx") && number && *number == 0) {
    out.global_pause_off = true;
    return true;
  }
  return false;
}

}  // namespace

const std::vector<RepairEntry>& Repairs() {
  static const std::vector<RepairEntry> table = {
      {"netdev_mtu", RepairMtu},
      {"trust", RepairTrust},
      {"pfc", RepairPfc},
      {"dscp", RepairDscpPriority},
      {"global_pause", RepairGlobalPause},
      {"cm.roce_mode", RepairCmRoceMode},
      {"cm.tos", RepairCmTos},
      {"ecn.np", RepairEcnNp},
      {"ecn.rp", RepairEcnRp},
      {"dcqcn", RepairDcqcnParameter},
      {"optional_counters", RepairOptionalCounters},
      {kSettingOfFinding, RepairDrift},
  };
  return table;
}

const RepairEntry* RepairFor(std::string_view setting) {
  for (const auto& entry : Repairs())
    if (!setting.empty() && entry.setting == setting) return &entry;
  return nullptr;
}

}  // namespace rocewatch::lint::fix
