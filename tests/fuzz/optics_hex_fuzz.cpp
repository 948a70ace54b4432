// The text of `ethtool -m DEV hex on`, flat ("0x0000: 03 04 ...") or paged ("I2C Address:",
// "Bank:", "Page:" headers): EepromImage::FromHexDump, DecodeDump's text path, Decode, and the
// paged dump of the image read back.

#include <cstddef>
#include <cstdint>

#include "exporter/optics/decode.h"
#include "exporter/optics/eeprom_image.h"
#include "fuzz_check.h"
#include "optics_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  auto image = optics::EepromImage::FromHexDump(fuzz::Text(data, size));
  if (image.ok()) {
    for (const auto& id : image->UpperPages()) {
      FUZZ_CHECK(image->Upper(id)->size() <= optics::kHalfPageSize);
    }
    for (auto address : image->LowerAddresses()) {
      FUZZ_CHECK(image->Lower(address)->size() <= optics::kHalfPageSize);
    }
    auto info = optics::Decode(*image);
    if (info.ok()) fuzz::CheckModule(*info, *image);
    fuzz::CheckHexRoundTrip(*image);
  }
  auto dumped = optics::DecodeDump(fuzz::Bytes(data, size));
  if (dumped.ok()) {
    auto dump_image = optics::ImageFromDump(fuzz::Bytes(data, size));
    FUZZ_CHECK(dump_image.ok());
    fuzz::CheckModule(*dumped, *dump_image);
  }
  return 0;
}
