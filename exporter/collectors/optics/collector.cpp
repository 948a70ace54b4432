#include "collectors/optics/collector.h"

#include "collectors/optics/source.h"
#include "sources/registry.h"

namespace rocewatch::collectors {

sources::SourceInfo Optics::Info() {
  return {"optics", "transceiver modules via ethtool (EEPROM: identity, DOM, thresholds, flags)", true,
          {{"interval", "60s", "how often to re-read module EEPROMs (slow on real modules)"},
           {"all-flags", "false", "every alarm/warning flag as a series, 0 when clear (default: raised ones only)"},
           {"all-thresholds", "false",
            "every threshold as roce_module_threshold (default: those rules and panels read; "
            "the module's raised flags stand for the others)"}},
          &sources::MakeOpticsSource, &metrics::RenderOptics, &metrics::OpticsSpecs,
          sources::OwnSection<OpticsSection>()};
}

}  // namespace rocewatch::collectors
