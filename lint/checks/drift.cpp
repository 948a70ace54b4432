// Drift: every setting of every NIC against the NICs of the same profile, even
// where the plan is silent — the "PFC on here, off there" case. A NIC is
// reported when it differs from a clear majority of its peers on a setting
// the plan does not fix (settings the plan fixes have their own checks).

#include <algorithm>
#include <map>
#include <set>

#include "lint/checks/check.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/fix/commands.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::checks {
namespace {

// Settings keys the profile fixes (checked against the plan instead).
bool PlannedByProfile(const plan::Profile& p, const std::string& key) {
  if (key == "netdev_mtu") return p.netdev_mtu.has_value();
  if (key == "roce_active_mtu") return p.roce_mtu.has_value();
  if (key == "port_rate") return p.link_speed_gbps.has_value();
  if (key == "pcie_speed") return p.pcie && p.pcie->speed_gts;
  if (key == "pcie_width") return p.pcie && p.pcie->width;
  if (key == "pfc") return p.pfc_priorities.has_value();
  if (key == "trust") return p.trust.has_value();
  if (key == "ecn.np") return p.ecn.np_priorities.has_value();
  if (key == "ecn.rp") return p.ecn.rp_priorities.has_value();
  if (key == "cm.roce_mode") return p.roce_mode.has_value();
  if (key == "cm.tos") return p.roce_dscp.has_value();
  if (key == "firmware") return !p.firmware.empty();
  if (key == "driver") return p.driver.has_value();
  if (key == "driver_version") return !p.driver_version.empty();
  if (key == "pause.rx" || key == "pause.tx") return p.pfc_priorities && !p.pfc_priorities->empty();
  if (key.rfind("dscp.", 0) == 0) {
    auto dscp = ParseI64(std::string_view(key).substr(5));
    return dscp && ((p.roce_dscp && *p.roce_dscp == *dscp) || (p.cnp_dscp && *p.cnp_dscp == *dscp));
  }
  if (key.rfind("dcqcn.", 0) == 0 && p.dcqcn) {
    std::string point = key.substr(6, 2), name = key.substr(9);
    const auto& params = point == "np" ? p.dcqcn->np : p.dcqcn->rp;
    return params.count(name) != 0;
  }
  return false;
}

std::string FixFor(const NicContext& c, const std::string& key, const std::string& value) {
  const auto tools = fix::Toolset::kUpstream;
  const std::string& nd = c.nic.netdev;
  auto number = ParseI64(value);
  if (key == "netdev_mtu" && number) return fix::SetMtu(nd, *number);
  if (key.rfind("dscp.", 0) == 0 && number) {
    if (auto dscp = ParseI64(std::string_view(key).substr(5))) return fix::SetDscpPriority(tools, nd, *dscp, *number);
  }
  if (key.rfind("dcqcn.", 0) == 0 && number) return fix::SetDcqcnParameter(nd, key.substr(6, 2), key.substr(9), *number);
  if (key == "pfc" || key == "ecn.np" || key == "ecn.rp") {
    std::vector<std::int64_t> prios;
    if (value != "none")
      for (auto part : Split(value, ','))
        if (auto p = ParseI64(part)) prios.push_back(*p);
    if (key == "pfc") return fix::SetPfc(tools, nd, prios);
    std::string out;
    for (int p = 0; p < 8; ++p) {
      bool on = std::find(prios.begin(), prios.end(), p) != prios.end();
      out += (out.empty() ? "" : "; ") + fix::SetEcn(nd, key.substr(4), p, on);
    }
    return out;
  }
  if (key == "cm.tos" && number) return fix::SetCmTos(tools, c.nic.ib_dev, c.port, *number);
  return "set " + key + " on " + nd + " to " + value + " like its peers, or record the difference in the plan";
}

}  // namespace

void CheckDrift(const std::vector<NicContext>& nics, FindingSink& sink) {
  std::map<std::string, std::vector<std::size_t>> by_profile;
  for (std::size_t i = 0; i < nics.size(); ++i) by_profile[nics[i].nic.profile].push_back(i);
  for (const auto& [profile_name, members] : by_profile) {
    if (members.size() < 3) continue;  // no majority among two
    const plan::Profile* profile = nics[members.front()].profile;
    std::vector<std::map<std::string, std::string>> settings;
    std::set<std::string> keys;
    for (std::size_t i : members) {
      const auto& c = nics[i];
      settings.push_back(NicSettings(c.view, c.nic.ib_dev, c.port, c.nic.netdev));
      // A port that is down reports a fallback rate: link.port-down says what matters.
      auto state = c.view.Value("roce_port_state", {{"device", c.nic.ib_dev}, {"port", c.port}});
      if (state && *state != 4) settings.back().erase("port_rate");
      for (const auto& [k, v] : settings.back()) keys.insert(k);
    }
    for (const auto& key : keys) {
      if (profile != nullptr && PlannedByProfile(*profile, key)) continue;
      std::map<std::string, std::size_t> counts;
      std::size_t having = 0;
      for (const auto& s : settings) {
        auto it = s.find(key);
        if (it == s.end()) continue;
        ++counts[it->second];
        ++having;
      }
      if (counts.size() < 2) continue;
      std::string majority;
      std::size_t best = 0;
      for (const auto& [value, n] : counts)
        if (n > best) best = n, majority = value;
      if (best * 2 <= having) continue;  // no clear majority: nothing to call drift
      for (std::size_t m = 0; m < members.size(); ++m) {
        auto it = settings[m].find(key);
        if (it == settings[m].end() || it->second == majority) continue;
        const auto& c = nics[members[m]];
        sink.Nic(kDrift, c, key + " = " + majority, key + " = " + it->second,
                 c.nic.netdev + " has " + key + " = " + it->second + ", while " + std::to_string(best) +
                     " of " + std::to_string(having) + " NICs with profile " + profile_name + " have " + majority + ".",
                 FixFor(c, key, majority));
      }
    }
  }
}

}  // namespace rocewatch::lint::checks
