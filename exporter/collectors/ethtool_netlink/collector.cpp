#include "exporter/collectors/ethtool_netlink/collector.h"

#include "exporter/collectors/ethtool_netlink/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo EthtoolNetlink::Info() {
  return {"ethtool_netlink",
          "link state with the link-down reason, and 802.3x pause, via ethtool netlink",
          true,
          {{"repeats", "false",
            "roce_link_down_events_total also while the ethtool collector serves the same "
            "counter as roce_ethtool_link_down_events_total, and roce_link_detected also while "
            "roce_netdev_carrier serves the same value (drivers whose link state is the carrier)"}},
          &MakeEthtoolNetlinkSource,
          &RenderLinkState,
          &LinkStateSpecs};
}

}  // namespace rocewatch::collectors
