#include "exporter/collectors/netdev/collector.h"

#include "exporter/collectors/netdev/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Netdev::Info() {
  return {"netdev",
          "MTU, operstate, carrier and speed of the RDMA netdevs from sysfs",
          true,
          {{"repeats", "false",
            "roce_netdev_up (= operstate up) and roce_netdev_speed_bytes_per_second (= the "
            "ethtool link speed, served while the ethtool collector has it) too"}},
          &MakeNetdevSource,
          &RenderNetdev,
          &NetdevSpecs};
}

}  // namespace rocewatch::collectors
