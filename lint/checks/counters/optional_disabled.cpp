// counters.optional-disabled: an optional RDMA hw counter the profile names (optional_counters)
// is not enabled on the port, or the port's driver has no such counter. Optional counters
// (mlx5: cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts) are enabled with `rdma statistic set`
// and lost at reboot, so a node that rebooted reads no CE or CNP counts. Read from
// roce_hw_optional_counter_enabled (RDMA netlink, kernels 6.0 and later); where the exporter
// serves none for the port, nothing is judged.

#include <algorithm>
#include <set>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {

namespace {

// "a,b" (sorted), or "none": how `rdma statistic set` takes the list and the fix script reads it.
template <typename Names>
std::string Listed(const Names& names) {
  std::set<std::string> sorted(names.begin(), names.end());
  std::string out;
  for (const auto& n : sorted) out += (out.empty() ? "" : ",") + n;
  return out.empty() ? std::string("none") : out;
}

}  // namespace

void OptionalDisabled(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || p->optional_counters.empty() || !c.device_present) return;
  const std::string& dev = c.nic.ib_dev;
  std::set<std::string> enabled, disabled;
  for (const auto& s : c.view.Select(metric::roce_hw_optional_counter_enabled,
                                     {{label::device, dev}, {label::port, c.port}}))
    (s.value() == 1 ? enabled : disabled).insert(std::string(s.Label(label::counter)));
  if (enabled.empty() && disabled.empty()) return;  // not read (no RDMA netlink): not judged
  std::vector<std::string> off, absent;
  for (const auto& want : p->optional_counters) {
    if (enabled.count(want)) continue;
    (disabled.count(want) ? off : absent).push_back(want);
  }
  if (off.empty() && absent.empty()) return;
  auto join = [](const auto& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out.empty() ? std::string("none") : out;
  };
  std::set<std::string> all = enabled;
  all.insert(disabled.begin(), disabled.end());
  const i18n::StoredArgs args = {{"device", dev},
                                 {"port", c.port},
                                 {"off", join(off)},
                                 {"absent", join(absent)},
                                 {"all", join(all)},
                                 {"counters", join(p->optional_counters)},
                                 {"enabled", join(enabled)}};
  i18n::Phrase message = absent.empty() ? i18n::Phrase::Of("check.counters.optional_disabled.message_off", args)
                         : off.empty()  ? i18n::Phrase::Of("check.counters.optional_disabled.message_absent", args)
                                        : i18n::Phrase::Of("check.counters.optional_disabled.message_both", args);
  // Enables what is enabled now and what the profile adds: the command sets the whole list.
  std::vector<std::string> want(enabled.begin(), enabled.end());
  for (const auto& n : off) want.push_back(n);
  std::sort(want.begin(), want.end());
  std::string list;  // the change's value: the names, comma-separated
  for (const auto& n : want) list += (list.empty() ? "" : ",") + n;
  sink.Nic(kOptionalCountersDisabled, c, i18n::Phrase::Of("check.counters.optional_disabled.expected", args),
           i18n::Phrase::Of("check.counters.optional_disabled.found", args), std::move(message),
           off.empty() ? FixText(i18n::Phrase::Of("check.counters.optional_disabled.fix_upgrade", {}))
                       : FixText::In(i18n::Phrase::Of("check.counters.optional_disabled.fix", {}),
                                     SettingChange{"optional_counters", list}),
           // The setting `roce-lint fix` enables; none when only counters the driver lacks are
           // missing (nothing to enable).
           off.empty() ? SettingDelta{}
                       : SettingDelta{"optional_counters", Listed(p->optional_counters),
                                      Listed(enabled)});
}

}  // namespace rocewatch::lint::checks::counters
