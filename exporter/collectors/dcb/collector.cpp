#include "exporter/collectors/dcb/collector.h"

#include <memory>
#include <vector>

#include "exporter/collectors/dcb/shown.h"
#include "exporter/collectors/dcb/source.h"
#include "exporter/collectors/registry.h"
#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {
namespace {

// What the dcb table is rendered from (metrics.cpp RenderNetdev): each netdev's settings and
// what the rest of the snapshot decides for it (shown.h), which carries the pause counters
// only where they are series. So the table, which is mostly settings, is served from the
// render cache while nothing it shows changed, and rendered again when a setting, a DSCP in
// use, PFC, the priorities that pause or a served counter does.
struct KeptInput {
  std::vector<DcbSettings> settings;
  std::vector<DcbShown> shown;
};

RenderInput DcbRenderInput() {
  return {[](const NodeSnapshot& snap) -> std::shared_ptr<const void> {
            auto kept = std::make_shared<KeptInput>();
            kept->settings.reserve(snap.dcb.size());
            kept->shown.reserve(snap.dcb.size());
            for (const DcbSnapshot& d : snap.dcb) {
              kept->settings.push_back(static_cast<const DcbSettings&>(d));
              kept->shown.push_back(DcbShownOf(snap, d));
            }
            return kept;
          },
          [](const NodeSnapshot& snap, const void* kept_input) {
            const auto& kept = *static_cast<const KeptInput*>(kept_input);
            if (kept.settings.size() != snap.dcb.size()) return false;
            for (std::size_t i = 0; i < snap.dcb.size(); ++i) {
              const DcbSnapshot& d = snap.dcb[i];
              if (!(static_cast<const DcbSettings&>(d) == kept.settings[i])) return false;
              if (!(DcbShownOf(snap, d) == kept.shown[i])) return false;
            }
            return true;
          }};
}

}  // namespace

CollectorInfo Dcb::Info() {
  return {"dcb", "QoS as the kernel holds it via dcbnl: PFC, ETS, APP table (trust, DSCP map), buffers, DCBX",
          true,
          {{"full-tables", "false", "every DSCP map, APP, ETS, buffer and DCBX entry, and dcbnl pause counters beside ethtool's, as series (default: a digest per table)"},
           {"dscps", "26,48", "DSCPs whose priority is exported besides the rdma_cm ToS and CNP DSCPs"}},
          &MakeDcbSource, &RenderDcb, &DcbSpecs, DcbRenderInput()};
}

}  // namespace rocewatch::collectors
