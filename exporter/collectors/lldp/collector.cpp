#include "exporter/collectors/lldp/collector.h"

#include "exporter/collectors/lldp/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Lldp::Info() {
  return {
      "lldp",
      "LLDP neighbours (the switch and port each netdev is cabled to) from lldpd via liblldpctl",
      true,
      {{"interval", "30s", "how often to ask lldpd for its neighbours"},
       {"full-tables", "false",
        "every entry of the switch port's DCBX tables (PFC per priority, APP, ETS) as series "
        "(default: PFC-enabled priorities and a digest per table)"},
       {"dscps", "26,48",
        "DSCPs whose priority in the switch port's DCBX APP table is exported by default (as "
        "--collector.dcb.dscps for the NIC's)"},
       {"socket", "",
        "lldpd's control socket (lldpd -u); empty: liblldpctl's default /run/lldpd.socket"}},
      &MakeLldpSource,
      &RenderLldp,
      &LldpSpecs};
}

}  // namespace rocewatch::collectors
