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
    sink.Node(kCollectorFailing, c.node.name, "", "", "collector " + collector + " succeeding",
              "collector " + collector + " failing",
              "The exporter's " + collector +
                  " collector failed in the last scrape, so the checks that need it see less.",
              "journalctl -u roce_exporter on " + c.node.name + " for the collector's error");
  }
}

}  // namespace rocewatch::lint::checks::inventory
