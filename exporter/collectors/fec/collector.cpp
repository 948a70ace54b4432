#include "collectors/fec/collector.h"

#include "collectors/fec/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Fec::Info() {
  return {"fec",
          "FEC encoding (configured, active) and FEC counters, total and per lane, with the "
          "FEC histogram, via ethtool netlink",
          true,
          {},
          &sources::MakeFecSource,
          &metrics::RenderFec,
          &metrics::FecSpecs};
}

}  // namespace rocewatch::collectors
