#include "lint/verify/busy_ports.h"

#include <algorithm>
#include <set>
#include <utility>

#include "lint/observe/jobs_on_device.h"

namespace rocewatch::lint::verify {

std::vector<std::size_t> NodesOf(const std::vector<std::vector<Pair>>& rounds) {
  std::vector<std::size_t> nodes;
  for (const auto& round : rounds)
    for (const auto& p : round)
      for (std::size_t n : {p.server.node, p.client.node})
        if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
  return nodes;
}

BusyPorts FindBusyPorts(const plan::Plan& plan, const std::vector<std::vector<Pair>>& rounds,
                        const std::vector<std::size_t>& nodes, const std::vector<observe::NodeView>& views) {
  BusyPorts out;
  std::set<std::pair<std::size_t, std::size_t>> seen;
  for (const auto& round : rounds) {
    for (const auto& p : round) {
      for (const Endpoint& e : {p.server, p.client}) {
        if (!seen.insert({e.node, e.nic}).second) continue;
        const std::string name = EndpointName(plan, e);
        const auto at = std::find(nodes.begin(), nodes.end(), e.node);
        if (at == nodes.end() || static_cast<std::size_t>(at - nodes.begin()) >= views.size()) {
          out.unknown.push_back(name + ": its exporter was not read");
          continue;
        }
        const observe::NodeView& view = views[static_cast<std::size_t>(at - nodes.begin())];
        if (!view.reachable()) {
          out.unknown.push_back(name + ": exporter unreachable: " + view.error());
          continue;
        }
        const auto jobs = observe::JobsOnDevice(view, plan.nodes[e.node].nics[e.nic].ib_dev);
        if (!jobs) {
          out.unknown.push_back(name + ": its exporter serves no per-job view (--collector.rdma.per-job)");
        } else if (!jobs->empty()) {
          out.busy.push_back(name + ": " + observe::JobList(*jobs));
        }
      }
    }
  }
  return out;
}

}  // namespace rocewatch::lint::verify
