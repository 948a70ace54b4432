// optics::Decode: picks the decoder for a module from its SFF-8024 identifier (byte 0).

#include "exporter/optics/decode.h"

#include <cstdio>

#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {

Result<ModuleInfo> Decode(const EepromImage& image) {
  auto lower = image.Lower(kI2cAddressA0);
  if (!lower || lower->empty()) {
    return Error{"EEPROM image has no lower page (I2C address 0x50, bytes 0-127)"};
  }
  if (lower->size() < kHalfPageSize) {
    return Error{"EEPROM lower page is truncated: " + std::to_string(lower->size()) + " of " +
                 std::to_string(kHalfPageSize) + " bytes"};
  }
  const std::uint8_t identifier = (*lower)[0];
  switch (FamilyOf(identifier)) {
    case Family::kSff8472:
      return DecodeSff8472(image);
    case Family::kSff8636:
      return DecodeSff8636(image);
    case Family::kCmis:
      return DecodeCmis(image);
    case Family::kUnknown:
      break;
  }
  char code[8];
  std::snprintf(code, sizeof code, "0x%02x", unsigned{identifier});
  return Error{"module identifier " + std::string(code) + " (" + IdentifierName(identifier) +
               ") at byte 0 has no decoder: expected SFP 0x03 (SFF-8472), QSFP 0x0c/QSFP+ "
               "0x0d/QSFP28 0x11 (SFF-8636) or QSFP-DD 0x18/OSFP 0x19/QSFP+ CMIS 0x1e (CMIS)"};
}

}  // namespace rocewatch::optics
