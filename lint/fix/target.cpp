#include "lint/fix/target.h"

#include <algorithm>
#include <string_view>

#include "lint/core/check_spec.h"
#include "lint/fix/repairs.h"

namespace rocewatch::lint::fix {

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
  n += !optional_counters.empty();
  n += acs_redirect_off.size();
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
  t.optional_counters = p.optional_counters;
  std::sort(t.optional_counters.begin(), t.optional_counters.end());
  t.optional_counters.erase(std::unique(t.optional_counters.begin(), t.optional_counters.end()),
                            t.optional_counters.end());
  t.firmware = p.firmware;
  t.driver = p.driver;
  t.driver_version = p.driver_version;
  t.kernel_driver = p.driver.value_or("");
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
    t.kernel_driver = f.kernel_driver;
    out.push_back(std::move(t));
  }
  for (const auto& finding : findings) {
    // The check's registration names the setting it compares, the repairs' table how to set
    // it (lint/fix/repairs.h); a finding of no registered check (none reaches here today) is
    // left to the operator.
    const CheckSpec* spec = FindCheckSpec(finding.check);
    const std::string_view unfixable = spec != nullptr ? spec->unfixable : kWhyNoStep;
    const RepairEntry* repair = spec != nullptr ? RepairFor(spec->setting) : nullptr;
    std::size_t i = 0;
    while (i < full.size() && !(finding.device == full[i].ib_dev ||
                                (finding.device.empty() && finding.netdev == full[i].netdev)))
      ++i;
    if (i == full.size()) {
      result.unfixable.push_back({&finding, std::string(unfixable)});
      continue;
    }
    NicTarget& t = out[i];
    if (!finding.port.empty()) t.port = finding.port;
    if (repair != nullptr && repair->repair(finding, full[i], t)) continue;
    result.unfixable.push_back({&finding, std::string(unfixable)});
  }
  for (auto& t : out)
    if (t.SettingCount() > 0) result.nics.push_back(std::move(t));
  return result;
}

}  // namespace rocewatch::lint::fix
