// inventory.exporter-unreachable: the node's metrics could not be read at all.

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::inventory {

void ExporterUnreachable(const NodeContext& c, FindingSink& sink) {
  const auto& view = c.view;
  if (view.reachable()) return;
  sink.Node(kExporterUnreachable, c.node.name, "", "", "metrics from " + view.source(), view.error(),
            "Cannot read the node's metrics: " + view.error() + ".",
            "systemctl status roce_exporter on " + c.node.name + "; check that " + c.node.exporter +
                " is reachable from here");
}

}  // namespace rocewatch::lint::checks::inventory
