#include "collectors/ethtool_netlink/collector.h"

#include "collectors/ethtool_netlink/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo EthtoolNetlink::Info() {
  return {"ethtool_netlink",
          "link state with the link-down reason, and 802.3x pause, via ethtool netlink",
          true,
          {{"repeats", "false",
            "roce_link_down_events_total also while the ethtool collector serves the same "
            "counter as roce_ethtool_link_down_events_total"}},
          &sources::MakeEthtoolNetlinkSource,
          &metrics::RenderLinkState,
          &metrics::LinkStateSpecs};
}

}  // namespace rocewatch::collectors
