#include "collectors/netdev/collector.h"

#include "collectors/netdev/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Netdev::Info() {
  return {"netdev",
          "MTU, operstate, carrier and speed of the RDMA netdevs from sysfs",
          true,
          {},
          &sources::MakeNetdevSource,
          &metrics::RenderNetdev,
          &metrics::NetdevSpecs};
}

}  // namespace rocewatch::collectors
