// The flat binary of `ethtool -m DEV raw on` (SFF-8472: A0h then A2h; SFF-8636 and CMIS:
// lower page then pages 00h, 01h, ...): EepromImage::FromRaw in the layout byte 0 selects and
// in the other one, DecodeDump's binary path, and Decode of the result.

#include <cstddef>
#include <cstdint>

#include "exporter/optics/decode.h"
#include "exporter/optics/eeprom_image.h"
#include "fuzz_check.h"
#include "optics_checks.h"

namespace {

using namespace rocewatch;

void DecodeImage(const optics::EepromImage& image) {
  auto info = optics::Decode(image);
  if (info.ok()) fuzz::CheckModule(*info, image);
  fuzz::CheckHexRoundTrip(image);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto raw = fuzz::Bytes(data, size);
  for (auto layout : {optics::RawLayout::kSff8472, optics::RawLayout::kLinearPages}) {
    auto image = optics::EepromImage::FromRaw(raw, layout);
    if (!image.ok()) continue;
    FUZZ_CHECK(!image->empty());
    // Every half is at most 128 bytes, and no more bytes come out than went in.
    std::size_t total = 0;
    for (auto address : image->LowerAddresses()) total += image->Lower(address)->size();
    for (const auto& id : image->UpperPages()) {
      FUZZ_CHECK(image->Upper(id)->size() <= optics::kHalfPageSize);
      total += image->Upper(id)->size();
    }
    FUZZ_CHECK(total == size);
    DecodeImage(*image);
  }
  auto dumped = optics::DecodeDump(raw);
  if (dumped.ok()) {
    auto image = optics::ImageFromDump(raw);
    FUZZ_CHECK(image.ok());
    fuzz::CheckModule(*dumped, *image);
  }
  return 0;
}
