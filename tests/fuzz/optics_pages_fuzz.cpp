// Decode of arbitrary page sets: any lower halves and upper pages, of any length up to 128
// bytes, at any I2C address, bank and page, as a MODULE_EEPROM_GET sequence or a capture can
// deliver them. Each decoder is called directly too, whatever byte 0 says.
//
// Input: records of {u8 kind, u8 i2c_address, u8 bank, u8 page, u8 length, length bytes}; kind
// bit 0 chooses lower half (0) or upper page (1). A short last record keeps what is there.

#include <cstddef>
#include <cstdint>

#include "exporter/optics/decode.h"
#include "exporter/optics/eeprom_image.h"
#include "fuzz_check.h"
#include "optics_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  optics::EepromImage image;
  std::size_t at = 0;
  while (at + 5 <= size) {
    const std::uint8_t kind = data[at];
    const optics::PageId id{data[at + 1], data[at + 2], data[at + 3]};
    const std::size_t length = std::min<std::size_t>(data[at + 4], size - at - 5);
    const auto bytes = fuzz::Bytes(data + at + 5, length);
    if ((kind & 1) == 0) {
      image.SetLower(id.i2c_address, bytes);
    } else {
      image.SetUpper(id, bytes);
    }
    at += 5 + length;
  }
  auto info = optics::Decode(image);
  if (info.ok()) fuzz::CheckModule(*info, image);
  for (auto decoder : {&optics::DecodeSff8472, &optics::DecodeSff8636, &optics::DecodeCmis}) {
    auto decoded = decoder(image);
    if (decoded.ok()) fuzz::CheckModule(*decoded, image);
  }
  fuzz::CheckHexRoundTrip(image);
  // ToRaw and back: whatever the layout keeps decodes without crashing.
  auto raw = optics::ToRaw(image);
  if (!raw.empty()) {
    auto back = optics::EepromImage::FromRaw(raw);
    if (back.ok()) {
      auto decoded = optics::Decode(*back);
      if (decoded.ok()) fuzz::CheckModule(*decoded, *back);
    }
  }
  return 0;
}
