// peer.app-priority: the switch port's APP table (or DSCP map) puts RoCEv2's UDP port 4791 or
// the RoCE / CNP DSCP on another priority than the NIC does: the two ends queue and pause the
// same packets on different priorities, DSCP by DSCP: the exporter serves the switch's priority
// for the RoCE and CNP DSCPs by default (--collector.lldp.dscps). A switch map known only by its
// digest is not judged: the NIC's map holds all 64 DSCPs where the switch announces a few, so
// unequal digests say nothing about the DSCPs that matter.

#include <tuple>

#include "lint/checks/observed.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/qos/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::peer {
void AppPriority(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || qos::NoDcb(c)) return;
  auto s = SwitchSideOf(c);
  if (!s) return;
  auto nic_map = DscpPriorities(c.view, c.nic.netdev);
  // The priority the NIC puts a DSCP on: its map where it serves the DSCP, else the plan's.
  auto nic_priority = [&](std::int64_t dscp, std::optional<std::int64_t> planned) -> std::optional<std::int64_t> {
    if (nic_map && dscp >= 0 && dscp < 64 && (*nic_map)[static_cast<std::size_t>(dscp)] >= 0)
      return (*nic_map)[static_cast<std::size_t>(dscp)];
    return planned;
  };
  std::vector<std::string> expected;
  std::vector<i18n::Phrase> found, fixes;
  if (s->udp_4791 && p->roce_dscp) {
    auto want = nic_priority(*p->roce_dscp, p->roce_priority);
    if (want && *want != *s->udp_4791) {
      expected.push_back("UDP 4791 → " + std::to_string(*want));
      found.push_back("UDP 4791 → " + std::to_string(*s->udp_4791));
      fixes.push_back(
          i18n::Phrase::Of("check.peer.app_priority.fix_udp", {{"where", s->Where()}, {"priority", std::to_string(*want)}}));
    }
  }
  if (s->dscp) {
    for (auto [dscp, planned] : {std::tuple{p->roce_dscp, p->roce_priority}, std::tuple{p->cnp_dscp, p->cnp_priority}}) {
      if (!dscp || *dscp < 0 || *dscp > 63) continue;
      const int theirs = (*s->dscp)[static_cast<std::size_t>(*dscp)];
      auto want = nic_priority(*dscp, planned);
      if (theirs < 0 || !want || *want == theirs) continue;  // a DSCP the switch does not map is its default class
      expected.push_back("DSCP " + std::to_string(*dscp) + " → " + std::to_string(*want));
      const i18n::StoredArgs item = {{"dscp", std::to_string(*dscp)}, {"priority", std::to_string(theirs)}};
      found.push_back(s->dscp_is_tc ? i18n::Phrase::Of("check.peer.app_priority.found_tc", item)
                                    : i18n::Phrase::Of("check.peer.app_priority.found_priority", item));
      fixes.push_back(SwitchDscpFixText(*s, *dscp, *want));
    }
  }
  if (found.empty()) return;
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  i18n::StoredArgs args = {{"ends", BothEnds(c, *s)}, {"source", s->source}, {"expected", join(expected)}};
  i18n::AddListArg(args, "found", found, "check.list.comma");
  i18n::StoredArgs found_args;
  i18n::AddListArg(found_args, "list", found, "check.list.comma");
  i18n::StoredArgs switch_fix;
  i18n::AddListArg(switch_fix, "list", fixes, "check.list.comma");
  sink.Nic(kPeerAppPriority, c, join(expected), i18n::Phrase::Of("check.peer.pause_mismatch.expected", found_args),
           i18n::Phrase::Of("check.peer.app_priority.message", args),
           NicNothingFix(i18n::Phrase::Of("check.peer.pause_mismatch.expected", switch_fix), c.nic.netdev,
                         kDscpPriority.id));
}

}  // namespace rocewatch::lint::checks::peer
