#include "exporter/collectors/fec/collector.h"

#include "exporter/collectors/fec/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Fec::Info() {
  return {"fec",
          "FEC encoding (configured, active) and FEC counters, total and per lane, with the "
          "FEC histogram, via ethtool netlink",
          true,
          {},
          &MakeFecSource,
          &RenderFec,
          &FecSpecs};
}

}  // namespace rocewatch::collectors
