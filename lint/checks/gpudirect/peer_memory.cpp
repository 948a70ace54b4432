// gpudirect.peer-memory: a profile of the node's NICs wants a peer-memory module and none is
// loaded: without it (and without the dma-buf path) the RDMA stack cannot register GPU memory,
// and NCCL falls back to staging through host memory. One finding per node.

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::gpudirect {

void PeerMemory(const NodeContext& c, FindingSink& sink) {
  if (!c.view.reachable()) return;
  bool wanted = false;
  for (const auto& nic : c.node.nics) {
    const plan::Profile* p = c.plan.FindProfile(nic.profile);
    wanted = wanted || (p != nullptr && p->gpudirect && p->gpudirect->peer_memory);
  }
  if (!wanted) return;
  const auto modules = c.view.Select(metric::roce_gpu_peer_memory_module_loaded);
  if (modules.empty()) return;  // the collector is off or older: nothing known
  for (const auto& m : modules)
    if (m.value() > 0) return;
  const i18n::StoredArgs args = {{"node", c.node.name}};
  sink.Node(kGpuDirectPeerMemory, c.node.name, "", "", i18n::Phrase::Of("check.gpudirect.peer_memory.expected", {}),
            i18n::Phrase::Of("check.gpudirect.peer_memory.found", {}),
            i18n::Phrase::Of("check.gpudirect.peer_memory.message", args),
            i18n::Phrase::Of("check.gpudirect.peer_memory.fix", args));
}

}  // namespace rocewatch::lint::checks::gpudirect
