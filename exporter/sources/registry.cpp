#include "sources/registry.h"

#include "sources/dcb.h"
#include "sources/ecn.h"
#include "sources/ethtool.h"
#include "sources/ethtool_netlink.h"
#include "sources/lldp.h"
#include "sources/netdev.h"
#include "sources/pcie.h"
#include "sources/rdma.h"
#include "sources/optics.h"
#include "sources/rdma_cm.h"
#include "sources/verbs.h"

namespace rocewatch::sources {

const std::vector<SourceInfo>& AllSources() {
  static const std::vector<SourceInfo> kSources = {
      {"rdma", "RDMA devices, ports, counters, hw_counters and GID table from sysfs", true,
       {{"gid-interval", "30s", "how often to re-read the GID table"}},
       &MakeRdmaSource, &metrics::RenderRdma, &metrics::RdmaSpecs},
      {"netdev", "MTU, operstate, carrier and speed of the RDMA netdevs from sysfs", true, {},
       &MakeNetdevSource, &metrics::RenderNetdev, &metrics::NetdevSpecs},
      {"pcie", "PCIe link speed and width of the RDMA devices from sysfs", true, {},
       &MakePcieSource, &metrics::RenderPcie, &metrics::PcieSpecs},
      {"ecn", "ECN enable and DCQCN parameters from sysfs (MLNX_OFED) and debugfs (upstream mlx5)",
       true,
       {{"all-priorities", "false", "ECN enable of all 8 priorities (default: those with ECN or PFC on)"},
        {"all-sources", "false", "debugfs DCQCN parameters also where they repeat the sysfs value"}},
       &MakeEcnSource, &metrics::RenderEcn, &metrics::EcnSpecs},
      {"rdma_cm", "rdma_cm default RoCE mode and ToS from configfs", true,
       {{"create-groups", "false",
         "create rdma_cm/<dev> in configfs so the kernel shows the defaults (needs root)"}},
       &MakeRdmaCmSource, &metrics::RenderRdmaCm, &metrics::RdmaCmSpecs},
      {"ethtool", "driver info, link settings and classified statistics (per-priority PFC, PHY) via SIOCETHTOOL",
       true,
       {{"metrics-include", "",
         "regex of raw ethtool stat names (per-queue and unclassified) to export as roce_ethtool_stat_total"}},
       &MakeEthtoolSource, &metrics::RenderEthtool, &metrics::EthtoolSpecs},
      {"dcb", "QoS as the kernel holds it via dcbnl: PFC, ETS, APP table (trust, DSCP map), buffers, DCBX",
       true,
       {{"full-tables", "false", "every DSCP map, APP, ETS, buffer and DCBX entry, and dcbnl pause counters beside ethtool's, as series (default: a digest per table)"},
        {"dscps", "26,48", "DSCPs whose priority is exported besides the rdma_cm ToS and CNP DSCPs"}},
       &MakeDcbSource, &metrics::RenderDcb, &metrics::DcbSpecs},
      {"ethtool_netlink", "link state with the link-down reason, and 802.3x pause, via ethtool netlink",
       true, {}, &MakeEthtoolNetlinkSource, &metrics::RenderLinkState, &metrics::LinkStateSpecs},
      {"verbs", "active MTU and speed of each port via libibverbs", true, {}, &MakeVerbsSource,
       &metrics::RenderVerbs, &metrics::VerbsSpecs},
      {"optics", "transceiver modules via ethtool (EEPROM: identity, DOM, thresholds, flags)", true,
       {{"interval", "60s", "how often to re-read module EEPROMs (slow on real modules)"},
        {"all-flags", "false", "every alarm/warning flag as a series, 0 when clear (default: raised ones only)"}},
       &MakeOpticsSource, &metrics::RenderOptics, &metrics::OpticsSpecs},
      {"lldp", "LLDP neighbours (the switch and port each netdev is cabled to) from lldpd via liblldpctl",
       true,
       {{"interval", "30s", "how often to ask lldpd for its neighbours"},
        {"socket", "", "lldpd's control socket (lldpd -u); empty: liblldpctl's default /run/lldpd.socket"}},
       &MakeLldpSource, &metrics::RenderLldp, &metrics::LldpSpecs},
  };
  return kSources;
}

const SourceInfo* FindSource(std::string_view name) {
  for (const auto& s : AllSources())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace rocewatch::sources
