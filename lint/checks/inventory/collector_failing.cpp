// inventory.collector-failing: an exporter collector failed in the last scrape.

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::inventory {

void CollectorFailing(const NodeContext& c, FindingSink& sink) {
  if (!c.view.reachable()) return;
  for (const auto& s : c.view.Select(metric::roce_exporter_collector_success)) {
    if (s.value() != 0) continue;
    std::string collector(s.Label(label::collector));
    sink.Node(kCollectorFailing, c.node.name, "", "",
              i18n::Phrase::Of("check.inventory.collector_failing.expected", {{"collector", collector}}),
              i18n::Phrase::Of("check.inventory.collector_failing.found", {{"collector", collector}}),
              i18n::Phrase::Of("check.inventory.collector_failing.message", {{"collector", collector}}),
              i18n::Phrase::Of("check.inventory.collector_failing.fix", {{"node", c.node.name}}));
  }
}

}  // namespace rocewatch::lint::checks::inventory
