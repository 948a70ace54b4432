#include "lint/fix/repairs.h"

#include <algorithm>
#include <string_view>

#include "lint/core/check_spec.h"
#include "lint/core/pci.h"
#include "lint/core/setting_table.h"
#include "lint/fix/commands.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::fix {
namespace {

const std::int64_t* Number(const SettingValue& v) { return std::get_if<std::int64_t>(&v); }

// "dscp.26" → 26 (setting::kDscp's keys).
std::optional<std::int64_t> DscpOfKey(std::string_view key) {
  if (!setting::kDscp.Names(key)) return std::nullopt;
  return ParseI64(key.substr(setting::kDscp.key.size()));
}

// "dcqcn.np.rpg_gd" → the np or rp parameter map and "rpg_gd"; false for another key.
bool SplitDcqcnKey(std::string_view key, std::string& point, std::string& name) {
  const std::size_t at = setting::kDcqcn.key.size();
  if (!setting::kDcqcn.Names(key) || key.size() < at + 4 || key[at + 2] != '.') return false;
  point = std::string(key.substr(at, 2));
  name = std::string(key.substr(at + 3));
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

// The bridges the finding found redirecting (its setting's found value, comma-separated). A
// list with anything that is not a PCI address is refused whole: none of it reaches the script.
bool RepairAcsRedirect(const Finding& finding, const NicTarget&, NicTarget& t) {
  const auto* found = std::get_if<std::string>(&finding.setting.found);
  if (found == nullptr) return false;
  const auto bridges = Split(*found, ',');
  if (bridges.empty() || !std::all_of(bridges.begin(), bridges.end(), [](std::string_view b) { return IsPciAddress(b); }))
    return false;
  for (auto bridge : bridges) t.acs_redirect_off.emplace_back(bridge);
  std::sort(t.acs_redirect_off.begin(), t.acs_redirect_off.end());
  t.acs_redirect_off.erase(std::unique(t.acs_redirect_off.begin(), t.acs_redirect_off.end()),
                           t.acs_redirect_off.end());
  return !t.acs_redirect_off.empty();
}

bool RepairGlobalPause(const Finding&, const NicTarget&, NicTarget& t) {
  t.global_pause_off = true;
  return true;
}

bool RepairDrift(const Finding& finding, const NicTarget& full, NicTarget& out) {
  const std::string& key = finding.setting.key;
  const setting::Spec* spec = setting::Find(key);
  const SettingValue& value = finding.setting.expected;
  const std::int64_t* number = Number(value);
  const std::string* text = std::get_if<std::string>(&value);
  if (spec == &setting::kNetdevMtu && number) {
    out.mtu = *number;
    return true;
  }
  if (spec == &setting::kPfc || spec == &setting::kEcnNp || spec == &setting::kEcnRp) {
    const auto* prios = std::get_if<std::vector<std::int64_t>>(&value);
    if (prios == nullptr) return false;
    (spec == &setting::kPfc ? out.pfc : spec == &setting::kEcnNp ? out.ecn_np : out.ecn_rp) = *prios;
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
  if (spec == &setting::kCmRoceMode && text && *text == kCmRoceModeV2) {
    out.cm_roce_v2 = true;
    return true;
  }
  if (spec == &setting::kCmTos && number) {
    out.cm_tos_dscp = *number >> 2;
    return true;
  }
  if (spec == &setting::kTrust && text && (*text == "dscp" || *text == "pcp")) {
    if (*text == "dscp" && full.dscp_priority.empty()) return false;  // nothing to add
    out.trust = *text;
    if (*text == "dscp") out.trust_dscp = full.dscp_priority;
    return true;
  }
  if ((spec == &setting::kPauseRx || spec == &setting::kPauseTx) && number && *number == 0) {
    out.global_pause_off = true;
    return true;
  }
  return false;
}

}  // namespace

const std::vector<RepairEntry>& Repairs() {
  static const std::vector<RepairEntry> table = {
      {setting::kNetdevMtu.name(), RepairMtu},
      {setting::kTrust.name(), RepairTrust},
      {setting::kPfc.name(), RepairPfc},
      {setting::kDscp.name(), RepairDscpPriority},
      {setting::kGlobalPause.name(), RepairGlobalPause},
      {setting::kCmRoceMode.name(), RepairCmRoceMode},
      {setting::kCmTos.name(), RepairCmTos},
      {setting::kEcnNp.name(), RepairEcnNp},
      {setting::kEcnRp.name(), RepairEcnRp},
      {setting::kDcqcn.name(), RepairDcqcnParameter},
      {setting::kOptionalCounters.name(), RepairOptionalCounters},
      {setting::kAcsRedirect.name(), RepairAcsRedirect},
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
