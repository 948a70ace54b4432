#include "sources/registry.h"

#include "collectors/all.h"
#include "metrics/renderers.h"
#include "sources/dcb.h"
#include "sources/ecn.h"
#include "sources/optics.h"

namespace rocewatch {
namespace collectors {

// The collectors whose files have not moved to collectors/<name>/ yet.
sources::SourceInfo Ecn::Info() {
  return {"ecn", "ECN enable and DCQCN parameters from sysfs (MLNX_OFED) and debugfs (upstream mlx5)",
          true,
          {{"all-priorities", "false", "ECN enable of all 8 priorities (default: those with ECN or PFC on)"},
           {"all-sources", "false", "debugfs DCQCN parameters also where they repeat the sysfs value"}},
          &sources::MakeEcnSource, &metrics::RenderEcn, &metrics::EcnSpecs};
}
sources::SourceInfo Dcb::Info() {
  return {"dcb", "QoS as the kernel holds it via dcbnl: PFC, ETS, APP table (trust, DSCP map), buffers, DCBX",
          true,
          {{"full-tables", "false", "every DSCP map, APP, ETS, buffer and DCBX entry, and dcbnl pause counters beside ethtool's, as series (default: a digest per table)"},
           {"dscps", "26,48", "DSCPs whose priority is exported besides the rdma_cm ToS and CNP DSCPs"}},
          &sources::MakeDcbSource, &metrics::RenderDcb, &metrics::DcbSpecs};
}
sources::SourceInfo Optics::Info() {
  return {"optics", "transceiver modules via ethtool (EEPROM: identity, DOM, thresholds, flags)", true,
          {{"interval", "60s", "how often to re-read module EEPROMs (slow on real modules)"},
           {"all-flags", "false", "every alarm/warning flag as a series, 0 when clear (default: raised ones only)"}},
          &sources::MakeOpticsSource, &metrics::RenderOptics, &metrics::OpticsSpecs};
}

}  // namespace collectors

namespace sources {
namespace {

template <class... Collectors>
std::vector<SourceInfo> InfosOf(CollectorList<Collectors...>) {
  return {Collectors::Info()...};
}

}  // namespace

const std::vector<SourceInfo>& AllSources() {
  static const std::vector<SourceInfo> kSources = InfosOf(collectors::All{});
  return kSources;
}

const SourceInfo* FindSource(std::string_view name) {
  for (const auto& s : AllSources())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace sources
}  // namespace rocewatch
