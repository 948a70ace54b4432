#pragma once

// What the SIOCETHTOOL module calls answer for a module image: ETHTOOL_GMODULEINFO's type and
// length (as the drivers report them) and the flat bytes ETHTOOL_GMODULEEEPROM reads at offset
// 0 (the layout `ethtool -m DEV raw on` prints). Used by the converters that turn a pasted
// `ethtool -m` dump into capture answers, and by the test fixtures.

#include <cstdint>
#include <vector>

#include "exporter/optics/eeprom_image.h"

namespace rocewatch::optics {

struct IoctlModule {
  std::uint32_t type = 0;         // ETH_MODULE_SFF_8079 / _8472 / _8436 / _8636
  std::vector<std::uint8_t> raw;  // eeprom_len = raw.size(); empty when there is no lower page
};

IoctlModule IoctlModuleLayout(const EepromImage& image);

}  // namespace rocewatch::optics
