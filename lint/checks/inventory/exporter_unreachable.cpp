// inventory.exporter-unreachable: the node's metrics could not be read at all.

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::inventory {

void ExporterUnreachable(const NodeContext& c, FindingSink& sink) {
  const auto& view = c.view;
  if (view.reachable()) return;
  sink.Node(kExporterUnreachable, c.node.name, "", "",
            i18n::Phrase::Of("check.inventory.exporter_unreachable.expected", {{"source", view.source()}}),
            view.error(),
            i18n::Phrase::Of("check.inventory.exporter_unreachable.message", {{"error", view.error()}}),
            i18n::Phrase::Of("check.inventory.exporter_unreachable.fix",
                             {{"node", c.node.name}, {"exporter", c.node.exporter}}));
}

}  // namespace rocewatch::lint::checks::inventory
