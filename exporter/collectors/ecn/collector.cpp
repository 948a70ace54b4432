#include "exporter/collectors/ecn/collector.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "exporter/collectors/ecn/source.h"
#include "exporter/collectors/registry.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {
namespace {

// What the ecn renderer reads beyond its section: which priorities have PFC on, per netdev
// (metrics.cpp ShownPriorities). With it the settings, read every --collector.ecn.interval,
// are rendered only when they or PFC change.
std::vector<std::pair<std::string, std::array<bool, 8>>> PfcOn(const NodeSnapshot& snap) {
  std::vector<std::pair<std::string, std::array<bool, 8>>> out;
  for (const auto& d : snap.dcb)
    if (d.pfc_enabled) out.emplace_back(d.netdev, *d.pfc_enabled);
  return out;
}

}  // namespace

CollectorInfo Ecn::Info() {
  return {"ecn",
          "ECN enable and DCQCN parameters from sysfs (MLNX_OFED), debugfs (upstream mlx5) and "
          "configfs (Broadcom's bnxt_re)",
          true,
          {{"interval", "30s", "how long a clean read of the settings is served before they are read again (0s: every scrape)"},
           {"all-priorities", "false", "ECN enable of all 8 priorities (default: those with ECN or PFC on)"},
           {"all-sources", "false", "debugfs DCQCN parameters also where they repeat the sysfs value"}},
          &MakeEcnSource, &RenderEcn, &EcnSpecs,
          SectionAnd<EcnSection, &PfcOn>()};
}

}  // namespace rocewatch::collectors
