// optics::ImageFromDump and DecodeDump: a dump file as `ethtool -m DEV raw on` (binary) or
// `ethtool -m DEV hex on` (text) writes it.

#include <algorithm>
#include <string_view>

#include "exporter/optics/decode.h"

namespace rocewatch::optics {
namespace {

// Text: printable ASCII and whitespace only. A binary dump never is, because byte 0 (the
// identifier) of every module type is below 0x20.
bool IsText(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t c) {
    return (c >= 0x20 && c <= 0x7e) || c == '\t' || c == '\n' || c == '\r';
  });
}

}  // namespace

Result<EepromImage> ImageFromDump(std::span<const std::uint8_t> file_bytes) {
  if (file_bytes.empty()) return Error{"EEPROM dump file is empty"};
  if (IsText(file_bytes)) {
    std::string_view text(reinterpret_cast<const char*>(file_bytes.data()), file_bytes.size());
    return EepromImage::FromHexDump(text);
  }
  return EepromImage::FromRaw(file_bytes);
}

Result<ModuleInfo> DecodeDump(std::span<const std::uint8_t> file_bytes) {
  auto image = ImageFromDump(file_bytes);
  if (!image.ok()) return image.error();
  return Decode(*image);
}

}  // namespace rocewatch::optics
