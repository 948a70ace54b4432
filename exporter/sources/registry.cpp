#include "sources/registry.h"

#include "sources/ecn.h"
#include "sources/netdev.h"
#include "sources/pcie.h"
#include "sources/rdma.h"
#include "sources/rdma_cm.h"

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
       true, {}, &MakeEcnSource, &metrics::RenderEcn, &metrics::EcnSpecs},
      {"rdma_cm", "rdma_cm default RoCE mode and ToS from configfs", true,
       {{"create-groups", "false",
         "create rdma_cm/<dev> in configfs so the kernel shows the defaults (needs root)"}},
       &MakeRdmaCmSource, &metrics::RenderRdmaCm, &metrics::RdmaCmSpecs},
  };
  return kSources;
}

const SourceInfo* FindSource(std::string_view name) {
  for (const auto& s : AllSources())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace rocewatch::sources
