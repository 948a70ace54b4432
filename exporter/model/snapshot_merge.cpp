#include "model/snapshot_merge.h"

#include <iterator>

namespace rocewatch {
namespace {

template <class T>
void Append(std::vector<T>& to, std::vector<T>& from) {
  if (to.empty()) {
    to = std::move(from);
  } else {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  }
  from.clear();
}

}  // namespace

void AppendSnapshot(NodeSnapshot& whole, NodeSnapshot&& part) {
  Append(whole.devices, part.devices);
  Append(whole.netdevs, part.netdevs);
  Append(whole.pcie, part.pcie);
  Append(whole.ecn, part.ecn);
  Append(whole.rdma_cm, part.rdma_cm);
  Append(whole.ethtool, part.ethtool);
  Append(whole.dcb, part.dcb);
  Append(whole.link_state, part.link_state);
  Append(whole.verbs, part.verbs);
  Append(whole.optics, part.optics);
  if (part.lldp) whole.lldp = std::move(part.lldp);
}

}  // namespace rocewatch
