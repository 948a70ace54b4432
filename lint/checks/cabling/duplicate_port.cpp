// cabling.duplicate-port: two NICs report the same switch port.

#include <map>
#include <utility>
#include <vector>

#include "lint/checks/cabling/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::cabling {
namespace {

void DuplicatePortOf(const Cluster& c, FindingSink& sink) {
  std::map<std::pair<std::string, std::string>, std::vector<const CablingRecord*>> at;
  for (const auto& r : c.records)
    for (const auto& s : r.neighbors) at[{s.switch_name, s.port_id}].push_back(&r);
  for (const auto& [key, recs] : at) {
    if (recs.size() < 2) continue;
    const std::string port = key.first + ":" + key.second;
    std::string all;
    for (const auto* r : recs) all += (all.empty() ? "" : ", ") + c.Where(*r);
    for (const auto* r : recs) {
      if (MatchesPlan(c, *r)) continue;  // the one planned there is where it belongs
      const plan::Nic& nic = c.Nic(*r);
      const i18n::StoredArgs args = {{"port", port},
                                     {"count", std::to_string(recs.size())},
                                     {"all", all},
                                     {"where", c.Where(*r)},
                                     {"planned", nic.switch_port.value_or("")},
                                     {"netdev", nic.netdev}};
      sink.Nic(kCablingDuplicatePort, Subject(c.Node(*r), nic, ""),
               i18n::Phrase::Of("check.cabling.duplicate_port.expected", args), all,
               i18n::Phrase::Of("check.cabling.duplicate_port.message", args),
               nic.switch_port ? i18n::Phrase::Of("check.cabling.duplicate_port.fix_planned", args)
                               : i18n::Phrase::Of("check.cabling.duplicate_port.fix", args));
    }
  }
}

}  // namespace

void DuplicatePort(const FleetContext& fleet, FindingSink& sink) {
  DuplicatePortOf(ClusterOf(fleet), sink);
}

}  // namespace rocewatch::lint::checks::cabling
