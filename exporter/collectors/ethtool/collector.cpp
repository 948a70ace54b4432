#include "exporter/collectors/ethtool/collector.h"

#include "exporter/collectors/ethtool/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Ethtool::Info() {
  return {"ethtool",
          "driver info, link settings and classified statistics (per-priority PFC, PHY) via "
          "SIOCETHTOOL",
          true,
          {{"metrics-include", "",
            "regex of raw ethtool stat names (per-queue and unclassified) to export as "
            "roce_ethtool_stat_total"},
           {"all-priorities", "false",
            "per-priority series (PFC pause, bytes, packets, discards, ECN marks) of all 8 "
            "priorities (default: those with PFC on, those a DSCP in use maps to, and those "
            "with a non-zero counter)"},
           {"all-port-stats", "false",
            "port statistics that repeat another family (mlx5's vport RDMA counters, MAC "
            "control and pause control frames) or are detail (frame size classes, PCIe stall "
            "seconds, module events) as roce_ethtool_* too"}},
          &MakeEthtoolSource,
          &RenderEthtool,
          &EthtoolSpecs};
}

}  // namespace rocewatch::collectors
