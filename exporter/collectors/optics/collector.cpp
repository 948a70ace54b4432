#include "exporter/collectors/optics/collector.h"

#include "exporter/collectors/optics/source.h"
#include "exporter/collectors/registry.h"

namespace rocewatch::collectors {

CollectorInfo Optics::Info() {
  return {"optics", "transceiver modules via ethtool (EEPROM: identity, DOM, thresholds, flags)", true,
          {{"interval", "60s", "how often to re-read module EEPROMs (slow on real modules)"},
           {"all-flags", "false", "every alarm/warning flag as a series, 0 when clear (default: raised ones only)"},
           {"all-thresholds", "false",
            "every threshold as roce_module_threshold (default: those rules and panels read; "
            "the module's raised flags stand for the others)"}},
          &MakeOpticsSource, &RenderOptics, &OpticsSpecs,
          OwnSection<OpticsSection>()};
}

}  // namespace rocewatch::collectors
