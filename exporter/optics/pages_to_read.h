#pragma once

// PagesToRead: which EEPROM pages a transport (ethtool netlink MODULE_EEPROM_GET, or the ioctl
// fallback) must read so the decoders have everything they use, and nothing a module does not
// have. Reading pages a module lacks makes some firmwares stall the I2C bus, and every read is
// slow (milliseconds), so the list is as short as the memory map allows.

#include <cstdint>
#include <span>
#include <vector>

#include "exporter/optics/eeprom_image.h"

namespace rocewatch::optics {

// One MODULE_EEPROM_GET request: ETHTOOL_A_MODULE_EEPROM_{I2C_ADDRESS,BANK,PAGE,OFFSET,LENGTH}.
struct PageRequest {
  PageId page;
  std::uint8_t offset = 0;  // 0 for a lower half, 128 for an upper page
  std::uint8_t length = 128;
  bool operator==(const PageRequest&) const = default;
};

// The reads for the module whose pages read so far are `known`, in order, starting with the
// lower page of A0h (so the list is never empty). Pages already in `known` are listed too, so
// the answer describes the whole module; a transport skips the ones it has. What a page says
// can add pages (CMIS page 01h tells how many banks of page 11h exist), so call again after
// reading the listed pages, until nothing new appears:
//   - SFF-8472: A0h lower; A2h lower when A0h byte 92 bit 6 says diagnostics are implemented.
//   - SFF-8636: lower page, page 00h; page 03h (thresholds) unless byte 2 bit 2 says flat.
//   - CMIS: lower page, page 00h; unless byte 2 bit 7 says flat: pages 01h, 02h and page 11h
//     of bank 0, and of banks 1-3 once page 01h byte 142 advertises them (modules with more
//     than 8 lanes).
//   - unknown identifiers: the lower page only.
std::vector<PageRequest> PagesToRead(const EepromImage& known);
// The same, knowing only the lower page (bytes 0-127 of A0h).
std::vector<PageRequest> PagesToRead(std::span<const std::uint8_t> lower_page);

}  // namespace rocewatch::optics
