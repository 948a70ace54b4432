#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// transceiver module EEPROM (SFF-8472, SFF-8636, CMIS): identity, DOM, thresholds, flags.
Result<std::unique_ptr<Source>> MakeOpticsSource(const SourceEnv& env);

}  // namespace rocewatch::sources
