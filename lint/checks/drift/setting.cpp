// drift.setting: every setting of every NIC against the NICs of the same profile, even
// where the plan is silent — the "PFC on here, off there" case. A NIC is
// reported when it differs from a clear majority of its peers on a setting
// the plan does not fix (settings the plan fixes have their own checks).

#include <algorithm>
#include <map>
#include <set>

#include "lint/checks/drift/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/core/setting_table.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::checks::drift {
namespace {

// Settings keys the profile fixes (checked against the plan instead): the plan field of each
// setting (lint/core/setting_table.h's `plan`) as this plan's profile holds it.
bool PlannedByProfile(const plan::Profile& p, const std::string& key) {
  namespace s = setting;
  const s::Spec* spec = s::Find(key);
  if (spec == &s::kNetdevMtu) return p.netdev_mtu.has_value();
  if (spec == &s::kRoceActiveMtu) return p.roce_mtu.has_value();
  if (spec == &s::kPortRate) return p.link_speed_gbps.has_value();
  if (spec == &s::kPcieSpeed) return p.pcie && p.pcie->speed_gts;
  if (spec == &s::kPcieWidth) return p.pcie && p.pcie->width;
  if (spec == &s::kPfc) return p.pfc_priorities.has_value();
  if (spec == &s::kTrust) return p.trust.has_value();
  if (spec == &s::kEcnNp) return p.ecn.np_priorities.has_value();
  if (spec == &s::kEcnRp) return p.ecn.rp_priorities.has_value();
  if (spec == &s::kCmRoceMode) return p.roce_mode.has_value();
  if (spec == &s::kCmTos) return p.roce_dscp.has_value();
  if (spec == &s::kFirmware) return !p.firmware.empty();
  if (spec == &s::kDriver) return p.driver.has_value();
  if (spec == &s::kDriverVersion) return !p.driver_version.empty();
  if (spec == &s::kPauseRx || spec == &s::kPauseTx) return p.pfc_priorities && !p.pfc_priorities->empty();
  if (spec == &s::kDscp) {
    auto dscp = ParseI64(std::string_view(key).substr(s::kDscp.key.size()));
    return dscp && ((p.roce_dscp && *p.roce_dscp == *dscp) || (p.cnp_dscp && *p.cnp_dscp == *dscp));
  }
  const std::size_t at = s::kDcqcn.key.size();  // "dcqcn.np.rpg_gd": point at `at`, name after it
  if (spec == &s::kDcqcn && p.dcqcn && key.size() > at + 3) {
    std::string point = key.substr(at, 2), name = key.substr(at + 3);
    const auto& params = point == "np" ? p.dcqcn->np : p.dcqcn->rp;
    return params.count(name) != 0;
  }
  return false;
}

// The change that brings the NIC to its peers' value, where one does (lint/fix renders it).
FixText FixFor(const plan::Nic& nic, const std::string& key, const std::string& value) {
  namespace s = setting;
  const s::Spec* spec = s::Find(key);
  auto number = ParseI64(value);
  if (spec == &s::kNetdevMtu && number) return SettingChange{key, *number};
  if (spec == &s::kDscp && number && ParseI64(std::string_view(key).substr(s::kDscp.key.size())))
    return SettingChange{key, *number};
  if (spec == &s::kDcqcn && number) return SettingChange{key, *number};
  if (spec == &s::kPfc || spec == &s::kEcnNp || spec == &s::kEcnRp) {
    std::vector<std::int64_t> prios;
    if (value != "none")
      for (auto part : Split(value, ','))
        if (auto p = ParseI64(part)) prios.push_back(*p);
    if (spec == &s::kPfc) return SettingChange{key, prios};
    FixText out;
    for (int p = 0; p < 8; ++p) {
      bool on = std::find(prios.begin(), prios.end(), p) != prios.end();
      if (!out.empty()) out += i18n::Phrase::Of("fix.separator", {});
      out += SettingChange{key + "." + std::to_string(p), std::int64_t{on ? 1 : 0}};  // setting::kEcnPriority
    }
    return out;
  }
  if (spec == &s::kCmTos && number) return SettingChange{key, *number};
  return i18n::Phrase::Of("check.drift.setting.fix", {{"key", key}, {"netdev", nic.netdev}, {"want", value}});
}

}  // namespace

void Setting(const FleetContext& c, FindingSink& sink) {
  const plan::Plan& plan = c.plan;
  const std::vector<DriftRecord>& records = c.drift;
  const SettingsPool& pool = c.pool;
  std::map<std::string, std::vector<const DriftRecord*>> by_profile;
  for (const auto& r : records) by_profile[plan.nodes[r.node].nics[r.nic].profile].push_back(&r);
  for (const auto& [profile_name, members] : by_profile) {
    if (members.size() < 3) continue;  // no majority among two
    const plan::Profile* profile = plan.FindProfile(profile_name);
    // key -> value -> how many NICs have it; keys in id order.
    std::map<std::uint32_t, std::map<std::uint32_t, std::size_t>> counts;
    for (const DriftRecord* r : members)
      for (const auto& [key, value] : pool.Set(r->settings)) ++counts[key][value];
    for (const auto& [key, values] : counts) {
      if (values.size() < 2) continue;
      const std::string key_name(pool.Text(key));
      if (profile != nullptr && PlannedByProfile(*profile, key_name)) continue;
      std::uint32_t majority = 0;
      std::size_t best = 0, having = 0;
      for (const auto& [value, n] : values) {
        having += n;
        if (n > best) best = n, majority = value;
      }
      if (best * 2 <= having) continue;  // no clear majority: nothing to call drift
      const std::string want(pool.Text(majority));
      for (const DriftRecord* r : members) {
        const SettingIds& settings = pool.Set(r->settings);
        auto it = std::lower_bound(settings.begin(), settings.end(), std::make_pair(key, 0u));
        if (it == settings.end() || it->first != key || it->second == majority) continue;
        const plan::Node& node = plan.nodes[r->node];
        const plan::Nic& nic = node.nics[r->nic];
        const std::string found(pool.Text(it->second));
        const std::string port(pool.Text(r->port));
        sink.Nic(kDrift, Subject(node, nic, port), key_name + " = " + want, key_name + " = " + found,
                 i18n::Phrase::Of("check.drift.setting.message", {{"netdev", nic.netdev},
                                                               {"key", key_name},
                                                               {"found", found},
                                                               {"best", std::to_string(best)},
                                                               {"having", std::to_string(having)},
                                                               {"profile", profile_name},
                                                               {"want", want}}),
                 FixFor(nic, key_name, want),
                 {key_name, TypedSetting(key_name, want), TypedSetting(key_name, found)});
      }
    }
  }
}

}  // namespace rocewatch::lint::checks::drift
